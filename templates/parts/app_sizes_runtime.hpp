/// The token sizes that depend on runtime params: main refuses to start when one is not
/// positive or overflows at the values given (dfg::token_size_error).
inline constexpr std::array<dfg::TokenSize<Params>, $n$> kRuntimeSizes = {{
$checks$}};