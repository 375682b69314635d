/* onesided — one-sided communication, which the trace does not model, between calls it does, in
   the style of the Intel MPI Benchmarks' RMA part: a window made by MPI_Win_create; a fence epoch
   with MPI_Put, MPI_Get and MPI_Accumulate; a passive-target epoch on the peer (MPI_Win_lock,
   MPI_Put, MPI_Win_flush, MPI_Fetch_and_op, MPI_Win_unlock); then a barrier, a point-to-point
   exchange and a reduction, which the trace does model. The one-sided calls are opaque calls with one warning
   each; the run and its trace go on past them. Two ranks. */
#include <mpi.h>

#define N 64

int main(int argc, char** argv)
{
   double window_data[N], local[N], received[N], sum;
   double one = 1, previous;
   int rank, peer, i;
   MPI_Win window;

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   peer = 1 - rank;
   for (i = 0; i < N; i++) {
      window_data[i] = rank;
      local[i] = 10 * rank + i;
   }

   MPI_Win_create(window_data, sizeof window_data, sizeof(double), MPI_INFO_NULL,
                  MPI_COMM_WORLD, &window);
   MPI_Win_fence(0, window);
   MPI_Put(local, N / 2, MPI_DOUBLE, peer, 0, N / 2, MPI_DOUBLE, window);
   MPI_Get(received, N / 2, MPI_DOUBLE, peer, N / 2, N / 2, MPI_DOUBLE, window);
   MPI_Win_fence(0, window);
   MPI_Accumulate(local, N / 2, MPI_DOUBLE, peer, N / 2, N / 2, MPI_DOUBLE, MPI_SUM, window);
   MPI_Win_fence(0, window);

   MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, window);
   MPI_Put(local, N / 2, MPI_DOUBLE, peer, 0, N / 2, MPI_DOUBLE, window);
   MPI_Win_flush(peer, window);
   MPI_Fetch_and_op(&one, &previous, MPI_DOUBLE, peer, N - 1, MPI_SUM, window);
   MPI_Win_unlock(peer, window);
   MPI_Barrier(MPI_COMM_WORLD);
   MPI_Win_free(&window);

   if (rank == 0) {
      MPI_Send(local, N, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD);
      MPI_Recv(received, N, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
   } else {
      MPI_Recv(received, N, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(local, N, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD);
   }
   MPI_Allreduce(&received[0], &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
   MPI_Finalize();
   return 0;
}
