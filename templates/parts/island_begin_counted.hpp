port_$port$_.begin($port$ + dfg::kCountedHeader<$elem$>, $elements$);
