dfg::DeviceRing<$elem$> $ident$_;  // $edge$: $capacity$ elements, $how$
