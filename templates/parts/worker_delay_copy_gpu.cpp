dfg::copy_async($dst$, $src$, bytes_$type$(run_.params), compute_, "cudaMemcpyAsync");
