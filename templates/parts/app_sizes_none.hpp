/// The token sizes that depend on runtime params (dfg::token_size_error): none.
inline constexpr std::array<dfg::TokenSize<Params>, 0> kRuntimeSizes = {};