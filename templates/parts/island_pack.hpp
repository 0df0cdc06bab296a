dfg::Pack<$elem$> $port$_{$fifo$_, $elements$, "$port$"};  // output $port$: tokens of $elements$ elements from $fifo$
