items.end_cycle(c);
if (run_.barrier_sync) {  // the ranks' barrier, between two of this rank's
  ranks_.arrive_and_wait();
  run_.end_phase();
}
