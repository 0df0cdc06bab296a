// The cycles run ahead of this thread, each stream waiting on the GPU for the
// other streams' cycles whose slots it reuses:
$comments$$mapped$dfg::GpuItems items(run_, where, kPe_$pe$, probes_, {$streams$}, {$orders$}$release$);
