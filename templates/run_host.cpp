/// Builds the workers of host $host$ (allocating the storage), runs one thread per PE, reports.
int run_host(const dfg::Options& options) {
  Run run(options);
  std::vector<std::unique_ptr<Worker>> workers;  // in Pe order
  $make_workers$
  return dfg::run_workers(run, workers, kPeNames, options);
}

}  // namespace
}  // namespace app

int main(int argc, char** argv) {
  return dfg::one_host_main(argc, argv, "$host$", app::kRuntimeParams, app::kRuntimeSizes, app::params_of,
                            app::run_host$main_alternatives$);
}
