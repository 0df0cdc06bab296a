
/// The MPI tag of the ranks' agreement on a live move (dfg/mpi/migration_link.hpp).
inline constexpr int kControlTag = $tag$;