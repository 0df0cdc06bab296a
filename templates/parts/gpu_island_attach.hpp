s.port_$port$_.ring = $fifo$_.ring();
