$port$.resize(port_$port$_.finish());
