dfg::Items items(run_, where, kPe_$pe$);
