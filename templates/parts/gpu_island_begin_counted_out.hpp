case $block$:
  port_$port$_.begin(t.$port$, $elements$);
  break;
