dfg::synchronize($streams$);
