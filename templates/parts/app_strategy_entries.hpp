inline constexpr std::array<EntryInfo, $n$> kEntries = {{
$infos$}};
/// The last first cycle: a run has iterations + kLatency cycles.
inline constexpr std::int64_t kLatency = $latency$;
