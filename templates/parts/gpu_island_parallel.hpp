case $block$:  // node $name$
  return true;
