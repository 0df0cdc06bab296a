dfg::PackSome<$elem$> port_$port$_{$fifo$_};  // output $port$ from $fifo$, what it holds
