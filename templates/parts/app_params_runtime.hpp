/// The runtime params, with their defaults (and bounds): set with --set NAME=VALUE or
/// --params FILE when the program starts; every size that depends on them is computed then.
inline constexpr std::array<dfg::RuntimeParam, $n$> kRuntimeParams = {{
$table$}};
struct Params {
$fields$};
/// The values parse_flags returns, in the order of kRuntimeParams.
inline Params params_of(const std::vector<std::int64_t>& values) { return Params{$values$}; }