  if (const int s = mpi.agree(app::gpu_error(mpi.host()), std::cerr); s != 0) return s;
