dfg::mpi::CycleTransfers net_;  // the ones in flight in a cycle
