/* lines — sends through derived datatypes, whose unique 64-byte cache lines the tool records
   (`lines=U` on the send, the cache-aware cost model's U): from a 64 x 64 matrix of doubles
   aligned on a line, a row (contiguous: no lines field), a column (64 lines, one per element), two
   columns from the 8th (each pair straddles two lines: 128) and two pairs of doubles 800 bytes
   apart (2 lines). Rank 1 receives them into contiguous buffers. */
#include <mpi.h>
#include <stdlib.h>

enum { N = 64 };

int main(int argc, char** argv)
{
   int rank;
   double* matrix = NULL;
   double in[2 * N];
   MPI_Datatype column, two_columns, pairs;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   if (posix_memalign((void**)&matrix, 64, N * N * sizeof(double)) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
   for (int i = 0; i < N * N; i++) matrix[i] = i;
   MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
   MPI_Type_vector(N, 2, N, MPI_DOUBLE, &two_columns);
   MPI_Type_indexed(2, (int[]){2, 2}, (int[]){0, 100}, MPI_DOUBLE, &pairs);
   MPI_Type_commit(&column);
   MPI_Type_commit(&two_columns);
   MPI_Type_commit(&pairs);
   if (rank == 0) {
      MPI_Send(matrix, N, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
      MPI_Send(matrix, 1, column, 1, 2, MPI_COMM_WORLD);
      MPI_Send(matrix + 7, 1, two_columns, 1, 3, MPI_COMM_WORLD);
      MPI_Send(matrix, 1, pairs, 1, 4, MPI_COMM_WORLD);
   } else if (rank == 1) {
      MPI_Recv(in, N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(in, N, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(in, 2 * N, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(in, 4, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
   }
   MPI_Type_free(&column);
   MPI_Type_free(&two_columns);
   MPI_Type_free(&pairs);
   free(matrix);
   MPI_Finalize();
   return 0;
}
