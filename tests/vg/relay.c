/* relay — MPI with tasks: a block goes rank 0 -> 1 -> ... -> P-1, each rank working on it
   before it passes it on:
     task "local": work of the rank's own, independent of the block (created first);
     task "recv":  MPI_Recv of the block from rank - 1 (not on rank 0);
     task "stage": works on the block (four times local's work);
     task "send":  MPI_Send of the block to rank + 1 (not on the last rank).
   On one core a rank, the block should go on before the local work: a send is short, but the
   stages of the ranks after it wait for it. Usage: mpirun -np P relay. The last rank prints
   "relay: ok" when the block arrived through every stage. */
#include <mpi.h>
#include <stdio.h>

#include "tareador.h"

enum { N = 512 };

static double block[N], own[N];

static void __attribute__((noinline)) work(double* x, int passes, double add)
{
   for (int p = 0; p < passes; p++)
      for (int i = 0; i < N; i++) x[i] = x[i] * 0.5 + add;
}

int main(int argc, char** argv)
{
   int rank, size;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   tareador_ON();
   tareador_start_task("local");
   work(own, 5, rank);
   tareador_end_task("local");
   if (rank > 0) {
      tareador_start_task("recv");
      MPI_Recv(block, N, MPI_DOUBLE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      tareador_end_task("recv");
   }
   tareador_start_task("stage");
   work(block, 20, 1.0);
   tareador_end_task("stage");
   if (rank < size - 1) {
      tareador_start_task("send");
      MPI_Send(block, N, MPI_DOUBLE, rank + 1, 0, MPI_COMM_WORLD);
      tareador_end_task("send");
   }
   tareador_OFF();
   /* 20 * size halvings towards 2.0 from 0: 2 - 2^(1 - 20 size), 2.0 in doubles */
   if (rank == size - 1) printf("relay: %s\n", block[N - 1] == 2.0 ? "ok" : "wrong");
   MPI_Finalize();
   return 0;
}
