  // --migrate against this host's alternatives; a refusal on any rank ends every rank.
  const auto& alternatives = options.overlap ? overlap::kAlternatives : no_overlap::kAlternatives;
  if (const int s = mpi.agree(dfg::check_requests(options, alternatives), std::cerr); s != 0) return s;
