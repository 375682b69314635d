/* polling — a rank that waits for its partner's message by polling, as a scheduler that looks
   for work between tests does, or with MPI_Wait. Rank 0 computes, then sends; rank 1 posts the
   receive and, with "poll", tests it in a loop until it completes; with "iprobe" it probes for
   the message in a loop (as HPL's broadcasts do), then receives it.
   Usage: polling poll|iprobe|wait */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static double compute(long n)
{
   volatile double s = 0;
   for (long i = 0; i < n; i++) s += i * 1e-9;
   return s;
}

int main(int argc, char** argv)
{
   int rank, poll = argc > 1 && strcmp(argv[1], "poll") == 0;
   int iprobe = argc > 1 && strcmp(argv[1], "iprobe") == 0;
   double message[64] = {0};
   long tests = 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   for (int round = 0; round < 4; round++) {
      if (rank == 0) {
         message[0] = compute(2000000);
         MPI_Send(message, 64, MPI_DOUBLE, 1, round, MPI_COMM_WORLD);
      } else if (rank == 1) {
         MPI_Request request;
         int done = 0;
         if (iprobe) {
            for (; !done; tests++) MPI_Iprobe(0, round, MPI_COMM_WORLD, &done, MPI_STATUS_IGNORE);
            done = 0;
         }
         MPI_Irecv(message, 64, MPI_DOUBLE, 0, round, MPI_COMM_WORLD, &request);
         if (poll)
            for (; !done; tests++) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
         else
            MPI_Wait(&request, MPI_STATUS_IGNORE);
      }
   }
   if (rank == 1)
      printf("polling: %s, %s\n", poll ? "polled" : iprobe ? "probed" : "waited",
             tests > 0 || !(poll || iprobe) ? "ok" : "no test");
   MPI_Finalize();
   return 0;
}
