dfg::Pack<$elem$> port_$port$_{$fifo$_, $elements$, "$port$"};  // output $port$ from $fifo$
