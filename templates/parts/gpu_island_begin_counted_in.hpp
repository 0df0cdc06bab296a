case $block$:
  port_$port$_.begin(t.$port$ + dfg::kCountedHeader<$elem$>, dfg::counted_length(t.$port$));
  break;
