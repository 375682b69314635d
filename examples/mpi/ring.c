/* ring — balanced (thesis 5.1): every rank computes the same amount, then passes a message
   around a ring (immediate receive from the left, immediate send to the right, wait for both).
   Usage: ring [ITERATIONS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 4;
   enum { N = 4096 };
   static double out[N], in[N];
   double check = 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   for (int it = 0; it < iterations; it++) {
      MPI_Request requests[2];
      MPI_Status statuses[2];
      check += work(out, N, 50);
      MPI_Irecv(in, N, MPI_DOUBLE, (rank + size - 1) % size, it, MPI_COMM_WORLD, &requests[0]);
      MPI_Isend(out, N, MPI_DOUBLE, (rank + 1) % size, it, MPI_COMM_WORLD, &requests[1]);
      MPI_Waitall(2, requests, statuses);
      check += in[0];
   }
   if (rank == 0) printf("ring: %d ranks, %d iterations, check %.3f\n", size, iterations, check);
   MPI_Finalize();
   return 0;
}
