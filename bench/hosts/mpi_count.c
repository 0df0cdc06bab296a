/* The MPI calls a program makes, counted per rank: a PMPI library for LD_PRELOAD
 * (overlap_vs_serial.py's `--count`). Each rank prints one line to stderr at MPI_Finalize:
 *
 *     mpi_count rank R: MPI_Test N MPI_Testall N MPI_Isend N MPI_Issend N MPI_Irecv N ...
 *
 * Build: mpicc -O2 -shared -fPIC mpi_count.c -o libmpi_count.so
 * Use:   mpirun -x LD_PRELOAD=$PWD/libmpi_count.so -np 2 app ...
 * The counts are plain integers: a program whose threads call MPI at once may lose a few, which
 * does not matter for counts of tens of thousands. */
#include <mpi.h>
#include <stdio.h>

enum { kTest, kTestall, kTestsome, kIsend, kIssend, kIrecv, kIbarrier, kBarrier, kWait, kWaitall, kCount };
static const char* const kNames[kCount] = {"MPI_Test",  "MPI_Testall", "MPI_Testsome", "MPI_Isend",
                                           "MPI_Issend", "MPI_Irecv",  "MPI_Ibarrier", "MPI_Barrier",
                                           "MPI_Wait",  "MPI_Waitall"};
static unsigned long long counts[kCount];

int MPI_Test(MPI_Request* r, int* flag, MPI_Status* s) {
  ++counts[kTest];
  return PMPI_Test(r, flag, s);
}
int MPI_Testall(int n, MPI_Request r[], int* flag, MPI_Status s[]) {
  ++counts[kTestall];
  return PMPI_Testall(n, r, flag, s);
}
int MPI_Testsome(int n, MPI_Request r[], int* out, int idx[], MPI_Status s[]) {
  ++counts[kTestsome];
  return PMPI_Testsome(n, r, out, idx, s);
}
int MPI_Isend(const void* b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request* r) {
  ++counts[kIsend];
  return PMPI_Isend(b, c, t, d, tag, comm, r);
}
int MPI_Issend(const void* b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request* r) {
  ++counts[kIssend];
  return PMPI_Issend(b, c, t, d, tag, comm, r);
}
int MPI_Irecv(void* b, int c, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request* r) {
  ++counts[kIrecv];
  return PMPI_Irecv(b, c, t, src, tag, comm, r);
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* r) {
  ++counts[kIbarrier];
  return PMPI_Ibarrier(comm, r);
}
int MPI_Barrier(MPI_Comm comm) {
  ++counts[kBarrier];
  return PMPI_Barrier(comm);
}
int MPI_Wait(MPI_Request* r, MPI_Status* s) {
  ++counts[kWait];
  return PMPI_Wait(r, s);
}
int MPI_Waitall(int n, MPI_Request r[], MPI_Status s[]) {
  ++counts[kWaitall];
  return PMPI_Waitall(n, r, s);
}
int MPI_Finalize(void) {
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char line[512];
  int n = snprintf(line, sizeof line, "mpi_count rank %d:", rank);
  for (int i = 0; i < kCount && n > 0 && n < (int)sizeof line; ++i)
    n += snprintf(line + n, sizeof line - (size_t)n, " %s %llu", kNames[i], counts[i]);
  fprintf(stderr, "%s\n", line);
  return PMPI_Finalize();
}
