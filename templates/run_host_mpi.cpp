}  // namespace

/// Builds the workers of host $host$ (allocating the storage) and runs one thread per PE. Around
/// the worker of $cpu$ runs the rank's communication thread: it makes every MPI call of the cycle
/// loop, and ends the whole job (MPI_Abort, with the rank and the reason, after the report files
/// marked incomplete) once any thread of the rank failed.
int run_host(const dfg::Options& options, dfg::mpi::Session& mpi) {
  $check_migrations$ Run run(options);
  run.tracer.set_process(mpi.rank(), std::string("host ").append(mpi.host_name()));
  dfg::mpi::align_trace_epochs(mpi, run.tracer);  // --trace: one time base for every rank's file
  $migration_link$ std::vector<std::unique_ptr<Worker>> workers;  // in Pe order, $cpu$ first
  $make_workers$ dfg::Workers threads;
  // Should the job end from this rank, its report files are written first, marked incomplete.
  const dfg::mpi::ReportBeforeAbort on_abort(mpi, run, options, threads);
  dfg::spawn_workers(threads, run, workers, kPeNames, options,
                     [&mpi$link_capture$](dfg::Where& where, const auto& cycles) {
                       dfg::mpi::run_mpi_worker(mpi, where, $cycles$);
                     });
  int status = threads.join();
  if (status == 0) status = dfg::finish_workers(workers);  // the nodes' finish(), all done
  if (status != 0) {
    // What was measured up to the error; main's guard ends the job.
    dfg::report(run, options, false);
    return status;
  }
  return dfg::report(run, options);
}

}  // namespace $ns$
