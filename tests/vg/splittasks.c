/* splittasks — MPI/OmpSs-style tasks where one task posts the non-blocking calls and another
   waits for them: per iteration, on a ring of P ranks,
     task "post":     MPI_Irecv of `in` from the left, MPI_Isend of `out` to the right,
                      MPI_Iallreduce of `local` into `global`;
     task "complete": MPI_Waitall of the three;
     task "use":      reads `in` and `global` (what was received);
     task "refill":   rewrites `out` (the send buffer, MPI's until the wait).
   The data arrives by the wait, not by the call: `use` must come after `complete` (read after
   write), and `refill` after `complete` too (write after read: --deps=raw+war), not only after
   `post`. Usage: mpirun -np P splittasks [ITERATIONS] (default 3). Rank 0 prints "ok" when
   every rank received what it should. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

enum { HALO = 64 };

static double out[HALO], in[HALO], local, global, received;
static MPI_Request requests[3];

static void __attribute__((noinline)) post(int left, int right, int it)
{
   MPI_Irecv(in, HALO, MPI_DOUBLE, left, it, MPI_COMM_WORLD, &requests[0]);
   MPI_Isend(out, HALO, MPI_DOUBLE, right, it, MPI_COMM_WORLD, &requests[1]);
   MPI_Iallreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &requests[2]);
}

static void __attribute__((noinline)) complete(void)
{
   MPI_Status statuses[3];
   MPI_Waitall(3, requests, statuses);
}

static void __attribute__((noinline)) use(void)
{
   for (int i = 0; i < HALO; i++) received += in[i];
   received += global;
}

static void __attribute__((noinline)) refill(int rank, int it)
{
   for (int i = 0; i < HALO; i++) out[i] = rank + it;
}

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 3, bad;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   int left = (rank + size - 1) % size;
   local = 1;
   refill(rank, 0);

   tareador_ON();
   for (int it = 0; it < iterations; it++) {
      tareador_start_task("post");
      post(left, (rank + 1) % size, it);
      tareador_end_task("post");
      tareador_start_task("complete");
      complete();
      tareador_end_task("complete");
      tareador_start_task("use");
      use();
      tareador_end_task("use");
      tareador_start_task("refill");
      refill(rank, it + 1);
      tareador_end_task("refill");
   }
   tareador_OFF();

   /* iteration it received left + it, HALO times, and the allreduce `size` */
   double want = 0;
   for (int it = 0; it < iterations; it++) want += HALO * (double)(left + it) + size;
   bad = received != want;
   MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
   if (rank == 0) printf("splittasks: %s\n", bad ? "wrong" : "ok");
   MPI_Finalize();
   return bad;
}
