dfg::PackBounded<$elem$> port_$port$_{$fifo$_, "$port$"};  // output $port$ from $fifo$, bounded
