/* pingpong — two ranks bounce messages of growing size (1 KB to 1 MB, blocking send and
   receive, and one synchronous send), the classic latency/bandwidth probe.
   Usage: pingpong [REPEATS] (run with 2 ranks) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
   int rank, repeats = argc > 1 ? atoi(argv[1]) : 2;
   static char buffer[1 << 20];
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   for (int bytes = 1024; bytes <= (1 << 20); bytes *= 32)
      for (int r = 0; r < repeats; r++) {
         if (rank == 0) {
            MPI_Send(buffer, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buffer, bytes, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         } else if (rank == 1) {
            MPI_Recv(buffer, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buffer, bytes, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
         }
      }
   if (rank == 0) MPI_Ssend(buffer, 8, MPI_CHAR, 1, 3, MPI_COMM_WORLD);
   if (rank == 1) MPI_Recv(buffer, 8, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
   if (rank == 0) printf("pingpong: done\n");
   MPI_Finalize();
   return 0;
}
