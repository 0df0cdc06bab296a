dfg::copy_token($dst$, $src$, bytes_$type$(run_.params));
