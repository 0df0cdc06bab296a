for (std::uint32_t k = 0; k < $q$; ++k) {  // $q$ firings, a call each
  $call$
}
