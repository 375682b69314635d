/* jacobi1d.c N ITERATIONS — the MPI version of `stencil 1 N ITERATIONS` (tests/vg/stencil.c):
   N points in contiguous blocks, one per rank; each iteration the ranks exchange their boundary
   points with their neighbours (one double each way) and average each point with its two
   neighbours. tests/vg/comm.sh compares its traced communication with the prediction from the
   sequential stencil. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX 1024

int main(int argc, char** argv)
{
   int rank, size, n = argc > 1 ? atoi(argv[1]) : 64, iterations = argc > 2 ? atoi(argv[2]) : 10;
   static double grid[2][MAX + 2];
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   int local = n / size, first = rank * local;
   for (int j = 1; j <= local; j++) grid[0][j] = first + j - 1;
   for (int t = 0; t < iterations; t++) {
      double *in = grid[t % 2], *out = grid[(t + 1) % 2];
      MPI_Request requests[4];
      MPI_Status statuses[4]; /* not MPI_STATUSES_IGNORE, which GCC takes for an empty array */
      int r = 0;
      if (rank > 0) {
         MPI_Isend(&in[1], 1, MPI_DOUBLE, rank - 1, t, MPI_COMM_WORLD, &requests[r++]);
         MPI_Irecv(&in[0], 1, MPI_DOUBLE, rank - 1, t, MPI_COMM_WORLD, &requests[r++]);
      }
      if (rank < size - 1) {
         MPI_Isend(&in[local], 1, MPI_DOUBLE, rank + 1, t, MPI_COMM_WORLD, &requests[r++]);
         MPI_Irecv(&in[local + 1], 1, MPI_DOUBLE, rank + 1, t, MPI_COMM_WORLD, &requests[r++]);
      }
      MPI_Waitall(r, requests, statuses);
      for (int j = 1; j <= local; j++) out[j] = (in[j - 1] + in[j] + in[j + 1]) / 3;
   }
   if (rank == 0) printf("%f\n", grid[iterations % 2][1]);
   MPI_Finalize();
   return 0;
}
