case $host$: return host_$id$::run_host(options, mpi);  // host $name$
