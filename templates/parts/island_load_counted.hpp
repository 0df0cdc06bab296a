port_$port$_.load($port$ + dfg::kCountedHeader<$elem$>, dfg::counted_length($port$));
