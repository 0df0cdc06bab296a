  // Live moves (--migrate-control) are agreed on by every rank through this link, which also
  // carries the state of a node that moves between hosts (dfg/mpi/migration_link.hpp).
  dfg::mpi::MigrationLink link(mpi, run.windows, kControlTag, kStateHandoffs, !options.migrate_control.empty());
  run.start_migrator(options.migrate_control, link, mpi.host(), kStateHandoffs);
