dfg::GpuItems items(run_, where, kPe_$pe$, probes_);
