dfg::set_counted_length($port$, port_$port$_.finish());
