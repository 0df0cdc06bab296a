port_$port$_.load($port$.data(), $port$.size());
