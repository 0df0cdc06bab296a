
/// The app's `batch`: each cycle runs $k$ iterations of the graph, so --iterations is a multiple
/// of $k$ and every node fires $k$ times its firings per iteration a cycle.
inline constexpr std::uint32_t kBatch = $k$;
