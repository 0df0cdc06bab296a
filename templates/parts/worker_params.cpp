const Params& params = run.params;
