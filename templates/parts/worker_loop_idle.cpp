void $cls$::$fn$(dfg::Where& where) {
  $items$
  items.cycles([](std::int64_t) {});
}

