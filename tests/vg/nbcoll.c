/* nbcoll — non-blocking collectives, each started at its call and completed at its wait.
   Rank 0 receives, between its MPI_Ibarrier and the wait for it, what rank 1 sends with
   MPI_Ssend before its own MPI_Ibarrier: legal MPI, a deadlock if the barrier were replayed
   at its call. Then an MPI_Iallreduce overlaps a computation, an MPI_Ibcast started after it is
   waited for first, and one MPI_Waitall completes a receive and a collective. Three ranks or
   more.

   Usage: nbcoll [WORK]   (WORK: iterations of the computation the allreduce overlaps) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
   int rank, size, token = 0, i, iterations = argc > 1 ? atoi(argv[1]) : 2000000;
   double mine, sum = 0, root_value = 0, acc = 0, ring = 0;
   MPI_Request barrier, reduce, bcast, pair[2];
   MPI_Status statuses[2];

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (size < 3) {
      if (rank == 0) fprintf(stderr, "nbcoll: run it on 3 ranks or more\n");
      MPI_Finalize();
      return 1;
   }

   /* Progress that needs the barrier's overlap. */
   if (rank == 1) MPI_Ssend(&rank, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
   MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
   if (rank == 0) MPI_Recv(&token, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
   MPI_Wait(&barrier, MPI_STATUS_IGNORE);

   /* An allreduce overlapped with work; a broadcast started later, waited for first. */
   mine = rank + 1;
   MPI_Iallreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &reduce);
   for (i = 0; i < iterations; i++) acc += (double)i * 1e-9;
   if (rank == 2) root_value = 42;
   MPI_Ibcast(&root_value, 1, MPI_DOUBLE, 2, MPI_COMM_WORLD, &bcast);
   MPI_Wait(&bcast, MPI_STATUS_IGNORE);
   MPI_Wait(&reduce, MPI_STATUS_IGNORE);

   /* A receive and a collective in one MPI_Waitall. */
   MPI_Irecv(&ring, 1, MPI_DOUBLE, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &pair[0]);
   MPI_Iallreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &pair[1]);
   MPI_Send(&sum, 1, MPI_DOUBLE, (rank + 1) % size, 7, MPI_COMM_WORLD);
   MPI_Waitall(2, pair, statuses);

   if (rank == 0)
      printf("nbcoll: token %d, sum %g (expected %d), broadcast %g, max %g, ring %g, work %g\n",
             token, sum, size * (size + 1) / 2, root_value, mine, ring, acc > 0 ? 1.0 : 0.0);
   MPI_Finalize();
   return 0;
}
