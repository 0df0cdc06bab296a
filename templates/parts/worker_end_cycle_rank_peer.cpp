if (run_.barrier_sync) run_.end_phase();  // while the CPU worker meets the other ranks
