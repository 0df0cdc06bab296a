port_$port$_.begin($port$);
