dfg::$type$ $m$;  // the initial tokens of input $port$ ($d$)
