/// The runtime params (--set NAME=VALUE, --params FILE): this app has none.
inline constexpr std::array<dfg::RuntimeParam, 0> kRuntimeParams = {};
struct Params {};
inline Params params_of(const std::vector<std::int64_t>&) { return Params{}; }