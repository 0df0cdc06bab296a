dfg::Unpack<$elem$> $port$_{$fifo$_, "$port$"};  // input $port$: its tokens into $fifo$
