/* forked — a rank that forks a helper, as codes do to compress their output or to run a
   post-processing step. The helper computes a checksum of the rank's data and leaves with
   _exit; with "late" it is still running when the rank has called MPI_Finalize. The helper is
   a copy of the traced process: its exit must not write the rank's buffered records a second
   time, nor its manifest.
   Usage: forked [late] */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv)
{
   int rank;
   double data[256], sum = 0, total = 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   for (int i = 0; i < 256; i++) data[i] = rank + i;
   MPI_Barrier(MPI_COMM_WORLD);
   int late = argc > 1 && strcmp(argv[1], "late") == 0;
   pid_t helper = fork();
   if (helper == 0) {
      double check = 0;
      for (int i = 0; i < 256; i++) check += data[i] * (i + 1);
      if (late) sleep(2);
      _exit(check > 0 ? 0 : 1);
   }
   if (!late) waitpid(helper, NULL, 0);
   for (int i = 0; i < 256; i++) sum += data[i];
   MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
   if (rank == 0) printf("forked: total %g\n", total);
   MPI_Finalize();
   return 0;
}
