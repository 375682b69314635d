/* pipeline (thesis 5.1): each rank waits for the previous one — it receives a block from rank
   r-1, computes on it and sends it on to rank r+1 (blocking MPI_Recv / MPI_Send), for several
   blocks, so that the ranks start one after the other.
   Usage: pipeline [BLOCKS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

int main(int argc, char** argv)
{
   int rank, size, blocks = argc > 1 ? atoi(argv[1]) : 4;
   enum { N = 2048 };
   static double block[N];
   double check = 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   for (int b = 0; b < blocks; b++) {
      if (rank > 0) MPI_Recv(block, N, MPI_DOUBLE, rank - 1, b, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      check += work(block, N, 60);
      if (rank < size - 1) MPI_Send(block, N, MPI_DOUBLE, rank + 1, b, MPI_COMM_WORLD);
   }
   if (rank == size - 1) printf("pipeline: %d ranks, %d blocks, check %.3f\n", size, blocks, check);
   MPI_Finalize();
   return 0;
}
