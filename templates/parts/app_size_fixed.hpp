/// $type$ = $elem$[$count$]: elements and bytes per token.
inline std::size_t elements_$type$(const Params&) { return $cxx$; }
