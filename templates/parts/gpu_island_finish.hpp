case $block$:
  port_$port$_.finish(r);
  break;
