dfg::$adapter$<$elem$> port_$port$_;  // block $block$: $dir$ $port$, ring $fifo$
