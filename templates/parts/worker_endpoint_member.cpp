std::optional<dfg::mpi::$type$> $m$;
