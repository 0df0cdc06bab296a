}  // namespace

/// Builds the workers of host $host$ (allocating the storage) and runs one thread per PE. Around
/// the worker of $cpu$ runs the rank's communication thread: it makes every MPI call of the cycle
/// loop, and ends the whole job (MPI_Abort, with the rank and the reason) once any thread of the
/// rank failed.
int run_host(const dfg::Options& options, dfg::mpi::Session& mpi) {
$check_migrations$  Run run(options);
  std::vector<std::unique_ptr<Worker>> workers;  // in Pe order, $cpu$ first
  $make_workers$
  dfg::Workers threads;
  Worker& cpu = *workers[0];
  const bool pin = options.pin_cpus;
  threads.spawn(kPeNames[0], [&cpu, &mpi, &run, pin](dfg::Where& where) {
    if (pin) dfg::pin_this_thread(0);
    dfg::mpi::run_mpi_worker(mpi, where, [&] { cpu.run(where, run.overlap); });
  });
  for (std::size_t pe = 1; pe < workers.size(); ++pe) {
    Worker& worker = *workers[pe];
    threads.spawn(kPeNames[pe], [&worker, &run, pe, pin](dfg::Where& where) {
      if (pin) dfg::pin_this_thread(pe);
      worker.run(where, run.overlap);
    });
  }
  if (const int status = threads.join(); status != 0) return status;  // main's guard ends the job
  return run.report(options);
}

}  // namespace $ns$
