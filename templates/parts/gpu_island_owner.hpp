dfg::GpuIslandRing<$elem$> $ident$_;  // $edge$
