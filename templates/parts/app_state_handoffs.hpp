

/// The nodes handed over when they move (dfg::StateHandoff: their state where they have
/// save/restore; on one host, the first firing of the new instance after the last of the old): $names$.
inline constexpr std::size_t kStateHandoffs = $n$;