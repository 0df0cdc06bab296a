namespace host_$id$ {
int run_host(const dfg::Options& options, dfg::mpi::Session& mpi);  // $file$
}
