dfg::Fifo<$elem$> $ident$_{$capacity$};  // $edge$: $capacity$ elements, $how$
