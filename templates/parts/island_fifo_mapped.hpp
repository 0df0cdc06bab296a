dfg::Fifo<$elem$>& $ident$_ = dfg_mapped::$ring$().host();  // $edge$: the mapped ring $ring$, $capacity$ elements
