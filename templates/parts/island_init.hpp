
  void init(dfg::Context&$ctx$) {
    $calls$
  }
