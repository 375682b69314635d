/* wildcard — rank 0 receives from MPI_ANY_SOURCE with MPI_ANY_TAG, once immediate (the trace
   learns the source when the wait completes) and then blocking; the trace records who actually
   sent, from the status. Rank 0 lets ranks 2, 3, ... send one at a time (a token), so which
   message the wildcard receives is the same in every run.
   Usage: wildcard (2 or more ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

int main(int argc, char** argv)
{
   int rank, size, value = 0, token = 1;
   static double data[1024];
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (rank == 0) {
      MPI_Request request;
      MPI_Status status;
      int sum = 0;
      MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &request);
      work(data, 1024, 5);
      MPI_Wait(&request, &status);
      sum += value;
      for (int i = 2; i < size; i++) {
         MPI_Send(&token, 1, MPI_INT, i, 1, MPI_COMM_WORLD);
         MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
         sum += value;
      }
      printf("wildcard: %d messages, sum %d\n", size - 1, sum);
   } else {
      if (rank > 1) MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      work(data, 1024, 20);
      value = rank;
      MPI_Send(&value, 1, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);
   }
   MPI_Finalize();
   return 0;
}
