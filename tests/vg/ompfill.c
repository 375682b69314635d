/* ompfill — a hybrid rank's OpenMP team fills the buffer it sends, and the receiver's team
   consumes what it receives (tests/vg/overlap.sh): two ranks, MPI_THREAD_FUNNELED, a static
   schedule, so each thread writes (and reads) its own half of the buffer, the other thread its
   second half. The overlap study must see the other thread's stores and loads, as made beside
   the master's: the second half is produced as the first is, through the parallel loop (it was
   once "never written", its chunks sent before the loop), and consumed likewise. */
#include <mpi.h>
#include <stdio.h>

#define N 16384 /* doubles: 128 KiB, 4 chunks of 32 KiB */
#define STEPS 4

static double buf[N];

static double work(double x, int i)
{
   for (int k = 0; k < 20; k++) x = x * 0.999 + i * 1e-9;
   return x;
}

int main(int argc, char** argv)
{
   int provided, rank;
   double sum = 0, total;
   MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   for (int s = 0; s < STEPS; s++) {
      if (rank == 0) {
#pragma omp parallel for schedule(static)
         for (int i = 0; i < N; i++) buf[i] = work(s + 1.0, i);
         MPI_Send(buf, N, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
      } else if (rank == 1) {
         MPI_Recv(buf, N, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma omp parallel for schedule(static) reduction(+ : sum)
         for (int i = 0; i < N; i++) sum += work(buf[i], i);
      }
   }
   MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
   if (rank == 1) printf("ompfill %.6f\n", total);
   MPI_Finalize();
   return 0;
}
