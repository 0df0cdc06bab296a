dfg::mpi::report_gpudirect_path(mpi, std::cerr);  // which path the gpudirect transfers take
