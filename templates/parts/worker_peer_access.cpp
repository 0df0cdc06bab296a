if (dfg::can_access_peer($d$, $s$)) dfg::enable_peer_access($d$, $s$);  // else staged by the driver
