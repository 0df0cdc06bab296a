dfg::mpi::GpuDirect $m$;  // $pe$'s end of the gpudirect transfers: device memory or staged
