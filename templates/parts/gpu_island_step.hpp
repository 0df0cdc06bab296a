case $block$:
  return $call$;
