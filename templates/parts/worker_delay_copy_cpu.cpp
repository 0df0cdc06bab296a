std::memcpy($dst$, $src$, bytes_$type$(run_.params));
