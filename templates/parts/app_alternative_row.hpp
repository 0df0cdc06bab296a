    {"$node$", "$from$", "$to$", $reversible$, $stop$, $start$$state$},  // delta $delta$
