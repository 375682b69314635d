/* collectives — the collective operations on MPI_COMM_WORLD and on a sub-communicator (the
   even and the odd ranks, by MPI_Comm_split), whose members the trace names by world rank.
   Usage: collectives (any number of ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

int main(int argc, char** argv)
{
   int rank, size;
   enum { N = 256 };
   static double a[N], b[N];
   double* all;
   MPI_Comm half;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   all = calloc((size_t)N * size, sizeof(double));
   work(a, N, 10 * (rank + 1));
   MPI_Bcast(a, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
   MPI_Reduce(a, b, N, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD);
   MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
   MPI_Gather(a, N, MPI_DOUBLE, all, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
   MPI_Scatter(all, N, MPI_DOUBLE, a, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
   MPI_Allgather(a, N, MPI_DOUBLE, all, N, MPI_DOUBLE, MPI_COMM_WORLD);
   MPI_Alltoall(all, N / size, MPI_DOUBLE, b, N / size, MPI_DOUBLE, MPI_COMM_WORLD);
   MPI_Scan(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

   MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
   work(a, N, 10);
   MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_SUM, half);
   MPI_Bcast(b, N, MPI_DOUBLE, 0, half);
   MPI_Barrier(half);
   MPI_Comm_free(&half);
   MPI_Barrier(MPI_COMM_WORLD);
   if (rank == 0) printf("collectives: %d ranks, %.3f\n", size, b[0]);
   free(all);
   MPI_Finalize();
   return 0;
}
