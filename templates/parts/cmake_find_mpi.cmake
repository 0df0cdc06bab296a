# One MPI rank per host: mpirun -np $hosts$ app
find_package(MPI REQUIRED COMPONENTS CXX)
