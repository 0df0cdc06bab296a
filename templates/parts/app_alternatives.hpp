/// Per migration alternative (dfg/migration.hpp): node, base PE, PE, reversible, the entries a
/// switch at iteration j* stops (they run the iterations before j*) and starts (from j* on).
$lists$inline constexpr std::array<dfg::Alternative, $n$> kAlternatives = {{
$rows$}};
