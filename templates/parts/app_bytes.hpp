inline std::size_t bytes_$type$(const Params& params) {
  return elements_$type$(params) * sizeof($cxx$);
}

