/* imbalance — micro-imbalanced (thesis 5.1): in each iteration one rank, a different one each
   time, computes twice as long; then neighbours exchange halos (MPI_Sendrecv). Over the
   iterations every rank does the same work, but every iteration waits for its slowest rank.
   Usage: imbalance [ITERATIONS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 4;
   enum { N = 4096 };
   static double data[N], halo[N];
   double check = 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   for (int it = 0; it < iterations; it++) {
      int right = (rank + 1) % size, left = (rank + size - 1) % size;
      check += work(data, N, it % size == rank ? 80 : 40);
      MPI_Sendrecv(data, N, MPI_DOUBLE, right, 7, halo, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      MPI_Sendrecv(data, N, MPI_DOUBLE, left, 8, halo, N, MPI_DOUBLE, right, 8, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      check += halo[0];
   }
   if (rank == 0) printf("imbalance: %d ranks, %d iterations, check %.3f\n", size, iterations, check);
   MPI_Finalize();
   return 0;
}
