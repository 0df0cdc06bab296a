    {"$node$", "$from$", "$to$", $reversible$, $stop$, $start$},  // delta $delta$
