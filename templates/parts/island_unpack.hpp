dfg::Unpack<$elem$> port_$port$_{$fifo$_, "$port$"};  // input $port$ into $fifo$
