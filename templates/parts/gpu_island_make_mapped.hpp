s.$ident$_ = dfg::device_ring(dfg_mapped::$ring$());  // $edge$: the mapped ring, zero-copy
