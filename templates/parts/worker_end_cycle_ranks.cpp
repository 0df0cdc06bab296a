if (run_.barrier_sync) {  // the ranks' barrier, between two of this rank's cycles
  ranks_.arrive_and_wait();
  run_.end_phase();
}
