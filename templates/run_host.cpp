/// Builds the workers of host $host$ (allocating the storage), runs one thread per PE, reports.
int run_host(const dfg::Options& options) {
  Run run(options);
  std::vector<std::unique_ptr<Worker>> workers;  // in Pe order
  $make_workers$
  dfg::Workers threads;
  for (std::size_t pe = 0; pe < workers.size(); ++pe) {
    Worker& worker = *workers[pe];
    threads.spawn(kPeNames[pe], [&worker](dfg::Where& where) { worker.run(where); });
  }
  if (const int status = threads.join_and_report(std::cerr); status != 0) return status;
  return run.report(options);
}

}  // namespace
}  // namespace app

int main(int argc, char** argv) {
  const dfg::FlagsResult flags = dfg::parse_flags(argc, argv, app::kRuntimeParams);
  if (!flags.ok()) {
    std::cerr << flags.error << '\n';
    return 1;
  }
  if (flags.options.help) {
    std::cout << dfg::usage(argv[0], app::kRuntimeParams);
    return dfg::finish_stdout(0, std::cerr);
  }
  const std::string error = dfg::start_up_error(flags.options, "$host$", app::kRuntimeSizes,
                                                app::params_of(flags.options.params), app::kRuntimeParams);
  if (!error.empty()) {
    std::cerr << error << '\n';
    return 1;
  }
  return dfg::finish_stdout(dfg::main_guard(std::cerr, [&] { return app::run_host(flags.options); }), std::cerr);
}
