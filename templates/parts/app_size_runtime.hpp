/// $type$ = $elem$[$count$]: elements and bytes per token, computed from the runtime params
/// (and checked when the program starts: kRuntimeSizes).
inline dfg::Size count_$type$(const Params& params) {
  return $cxx$;
}
inline std::size_t elements_$type$(const Params& params) {
  return static_cast<std::size_t>(count_$type$(params).value());
}
