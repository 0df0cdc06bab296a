$ident$_ = dfg::GpuIslandRing<$elem$>("$island$: $edge$", $capacity$);
s.$ident$_ = $ident$_.ring();
