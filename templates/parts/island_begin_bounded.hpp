port_$port$_.begin($port$.data(), $port$.capacity());
