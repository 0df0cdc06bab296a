port_$port$_.load($port$, $elements$);
