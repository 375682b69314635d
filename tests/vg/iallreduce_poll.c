/* iallreduce_poll — a non-blocking collective polled while messages flow: rank 1 completes its
   MPI_Iallreduce, then sends rank 0 a message, which rank 0 receives before its own MPI_Test of
   the collective completes it. Correct MPI; broken up at its wait (--overlap's kinds), the
   collective deadlocks the replay. Two ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
   int rank, in = 1, out = 0, msg = 0, flag = 0;
   MPI_Request request;

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request);
   if (rank == 1) {
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      msg = out; /* produced after the wait: its send stays after it in every kind */
      MPI_Send(&msg, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
   } else if (rank == 0) {
      MPI_Recv(&msg, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      while (!flag) MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
      printf("iallreduce_poll: sum %d, rank 1 saw %d\n", out, msg);
   }
   MPI_Finalize();
   return 0;
}
