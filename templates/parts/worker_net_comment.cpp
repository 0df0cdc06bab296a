// host-to-host transfers (MPI) of the chosen strategy, built by the constructor
