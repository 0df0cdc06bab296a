case $block$:  // node $name$: $counts$ elements a firing
  return dfg::block_fire_parallel(
             threads, [this](std::size_t, auto... window) { $ident$_.fire(window...); },
             $ports$) != 0;
