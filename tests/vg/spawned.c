/* spawned — a job that starts workers with MPI_Comm_spawn, as master/worker codes do: the
   parent's rank 0 sends each worker a value over the intercommunicator; the workers share it.
   Under `tareador --trace-children=yes mpirun`, the workers are valgrind's children too: they
   must not write their ranks over the parent job's in the trace set. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
   MPI_Comm parent, workers;
   int rank;
   double value;
   MPI_Init(&argc, &argv);
   MPI_Comm_get_parent(&parent);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   if (parent == MPI_COMM_NULL) {
      value = 42;
      MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &workers,
                     MPI_ERRCODES_IGNORE);
      if (rank == 0) MPI_Send(&value, 1, MPI_DOUBLE, 0, 5, workers);
      MPI_Comm_free(&workers);
      if (rank == 0) printf("spawned: the parent sent %g\n", value);
   } else {
      if (rank == 0) MPI_Recv(&value, 1, MPI_DOUBLE, 0, 5, parent, MPI_STATUS_IGNORE);
      MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      MPI_Comm_free(&parent);
   }
   MPI_Finalize();
   return 0;
}
