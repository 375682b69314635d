/* hybrid.c — an MPI+OpenMP rank in the FUNNELED style: every thread of the rank computes its
   share of a loop, the master alone talks to the other ranks. The trace holds the master
   thread's bursts only; when the other threads compute, the rank's manifest warns. With
   "idle", each rank also starts a thread that does nothing, which is no reason to warn (a new
   thread's count starts from its creator's). With "comm", each rank also starts a thread that
   only exchanges messages (MPI_THREAD_MULTIPLE) while the master computes: what it executes
   inside MPI is no computation of the program, and no reason to warn either; meanwhile rank
   0's master sends rank 1's a synchronous message (tag 5) that rank 1 receives late: the
   calls of the other thread that end while it waits keep their records apart. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define N 200000

static double values[N];

static void* nothing(void* arg) { return arg; }

/* Exchanges 2,000 messages with the partner rank's thread (rank ^ 1): all of it inside MPI. */
static void* exchange(void* arg)
{
   int rank = *(int*)arg, i, out = rank, in;
   for (i = 0; i < 2000; i++)
      MPI_Sendrecv(&out, 1, MPI_INT, rank ^ 1, 7, &in, 1, MPI_INT, rank ^ 1, 7, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
   return arg;
}

int main(int argc, char** argv)
{
   int provided, rank, step, i;
   double local = 0, total = 0;
   int comm = argc > 1 && strcmp(argv[1], "comm") == 0;
   pthread_t talker;
   MPI_Init_thread(&argc, &argv, comm ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED, &provided);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   if (argc > 1 && strcmp(argv[1], "idle") == 0) {
      pthread_t idle;
      pthread_create(&idle, NULL, nothing, NULL);
      pthread_join(idle, NULL);
   }
   comm = comm && provided == MPI_THREAD_MULTIPLE;
   if (comm) {
      int message = 42;
      pthread_create(&talker, NULL, exchange, &rank);
      if (rank == 0) MPI_Ssend(&message, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
      if (rank == 1) {
         usleep(300000);
         MPI_Recv(&message, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
   }
   for (step = 0; step < 3; step++) {
#pragma omp parallel for reduction(+ : local)
      for (i = 0; i < N; i++) {
         values[i] = values[i] * 0.5 + i + rank;
         local += values[i];
      }
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
   }
   if (comm) pthread_join(talker, NULL);
   if (rank == 0) printf("total %g%s\n", total, comm ? " (a thread exchanged messages)" : "");
   MPI_Finalize();
   return 0;
}
