  const bool migrate = !flags.options.migrations.empty();
  if (const int s = mpi.agree(migrate ? "error: --migrate: this program has no alternative mappings" : "", std::cerr);
      s != 0)
    return s;
