/* emptyblocks — an MPI_Alltoallv whose receive displacements are the running sums of the
   counts, as codes compute them: an empty block starts where the next one does. Rank 0 sends
   one 32 KiB block to rank 3, which arrives late, and rank 1 one to rank 2 (whose first block,
   empty, starts where that one does); the receivers use them after more work; every other
   block is empty. With the argument "apart" the empty blocks get displacements of their own.
   The two runs make the same transfers, so the overlap kinds' speedups over authentic-p2p
   must be the same (an empty block once ended the previous block's consumption at the call,
   so that its wait went before the call's later sends). Four ranks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 4096
#define STEPS 10

static double acc;

static void work(long n)
{
   for (long i = 0; i < n; i++) acc += i * 0.5;
}

int main(int argc, char** argv)
{
   static double send[N], recv[N + 8];
   int rank, size, i, step, apart = argc > 1 && strcmp(argv[1], "apart") == 0;
   int scounts[4] = {0}, sdispls[4] = {0}, rcounts[4] = {0}, rdispls[4] = {0};

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (size != 4) MPI_Abort(MPI_COMM_WORLD, 1);
   if (rank == 0) scounts[3] = N;
   if (rank == 3) rcounts[0] = N;
   if (rank == 1) scounts[2] = N;
   if (rank == 2) rcounts[1] = N;
   for (i = 1; i < 4; i++) {
      sdispls[i] = sdispls[i - 1] + scounts[i - 1];
      rdispls[i] = rdispls[i - 1] + rcounts[i - 1];
   }
   for (i = 0; apart && i < 4; i++)
      if (rcounts[i] == 0) rdispls[i] = N + i; /* past the block with data */
   for (step = 0; step < STEPS; step++) {
      work(rank == 3 ? 30000 : 2000);
      for (i = 0; i < N; i++) send[i] = rank + i + step;
      MPI_Alltoallv(send, scounts, sdispls, MPI_DOUBLE, recv, rcounts, rdispls, MPI_DOUBLE,
                    MPI_COMM_WORLD);
      work(5000);
      acc += recv[0];
   }
   if (rank == 3) printf("emptyblocks: rank 3 received %g\n", recv[N - 1]);
   MPI_Finalize();
   return 0;
}
