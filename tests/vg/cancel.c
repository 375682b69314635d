/* cancel — a receive from a known source cancelled (MPI_Cancel, then MPI_Wait, as a program
   that posts a receive for a message that may never come withdraws it at the end of a cycle).
   The trace keeps it, posted and never waited for; the receives after it on its channel get
   rank 1's messages of 2 and 4 ints. Two ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
   int rank, buf[4] = {0}, cancelled = 0, last = 0;
   MPI_Request request;
   MPI_Status status;

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   if (rank == 0) {
      MPI_Irecv(buf, 4, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
      MPI_Cancel(&request);
      MPI_Wait(&request, &status);
      MPI_Test_cancelled(&status, &cancelled);
      MPI_Barrier(MPI_COMM_WORLD); /* rank 1 sends after the cancel */
      MPI_Irecv(buf, 2, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      last = buf[0];
      MPI_Irecv(buf, 4, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      printf("cancel: cancelled %d, received %d then %d\n", cancelled, last, buf[3]);
   } else if (rank == 1) {
      int v[4] = {42, 0, 0, 43};
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Send(v, 2, MPI_INT, 0, 7, MPI_COMM_WORLD);
      MPI_Send(v, 4, MPI_INT, 0, 7, MPI_COMM_WORLD);
   }
   MPI_Finalize();
   return 0;
}
