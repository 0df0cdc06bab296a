constexpr dfg::mpi::GpuUse kGpus_$id$[] = {$gpus$};
