/* faults — a run that does not reach MPI_Finalize: `faults segv` makes rank 1 dereference
   NULL, `faults abort` makes it call MPI_Abort, `faults hang` makes it wait for a message no
   rank sends (until the job is killed: a time limit). The trace stops there, marked truncated.
   `faults stall` hangs the same way after a second barrier and half a second of sleep: what
   rank 1 did until it blocked must be on disk while it waits, to survive a SIGKILL.
   `faults spin` makes rank 1 compute for ever after the second barrier: what it did until then
   must be on disk while it computes.
   Usage: faults segv|abort|hang|stall|spin (2 or more ranks) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "work.h"

int main(int argc, char** argv)
{
   int rank;
   static double data[1024];
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   work(data, 1024, 10);
   MPI_Barrier(MPI_COMM_WORLD);
   if (rank == 1 && argc > 1 && strcmp(argv[1], "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 3);
   if (rank == 1 && argc > 1 && strcmp(argv[1], "segv") == 0) {
      volatile int* nowhere = NULL;
      *nowhere = 1;
   }
   if (argc > 1 && (strcmp(argv[1], "stall") == 0 || strcmp(argv[1], "spin") == 0)) {
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 1 && strcmp(argv[1], "spin") == 0)
         for (;;) work(data, 1024, 10);
      if (rank == 1) usleep(500000);
   }
   if (rank == 1 && argc > 1 && (strcmp(argv[1], "hang") == 0 || strcmp(argv[1], "stall") == 0))
      MPI_Recv(data, 1, MPI_DOUBLE, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
   MPI_Barrier(MPI_COMM_WORLD);
   MPI_Finalize();
   return 0;
}
