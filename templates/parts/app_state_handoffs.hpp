

/// The nodes whose actor state moves with them (save/restore): $names$.
inline constexpr std::size_t kStateHandoffs = $n$;