dfg::mpi::RankBarrier ranks_;  // --sync=barrier: all ranks end each cycle together
