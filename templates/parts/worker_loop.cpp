void $cls$::$fn$(dfg::Where& where) {
  $items$
  for (std::int64_t c = 0; c < run_.cycles; ++c) {
    items.begin(c);
    $steps$
  }
}

