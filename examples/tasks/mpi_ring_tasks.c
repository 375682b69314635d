/* mpi_ring_tasks — an MPI ring decomposed into tasks (MPI/OmpSs, thesis 4.3 and 4.4: "the
   programmer can start from an MPI application, propose some decomposition of MPI processes
   into OmpSs tasks"; the communication is its own task, as in its section 6.1.3 codes). Every
   rank, per iteration:
     task "compute":  updates its boundary buffer `out` from the halo `in` it last received
                      (inout out, in in);
     task "exchange": MPI_Sendrecv of `out` to the right neighbour and of `in` from the left
                      one (in out, out in) - the MPI call inside the task;
     task "interior": the bulk of the work, on its own buffer `interior` (inout interior),
                      independent of the other two, so it can overlap with the exchange.
   MPI_Init, MPI_Finalize and the final check are outside the tasks (and outside tareador_ON /
   tareador_OFF). Usage: mpirun -np P mpi_ring_tasks [ITERATIONS] (default 4, any P >= 1).
   Rank 0 prints "ok" when every rank received what its left neighbour sent.

   Expected graph, per rank (3 ITERATIONS instances; 12 by default): read-after-write edges
     compute#i  -> exchange#i    through out (what is sent)
     compute#i  -> compute#i+1   through out (compute updates out in place)
     exchange#i -> compute#i+1   through in (what was received)
     interior#i -> interior#i+1  through interior
   (the MPI library's own memory makes none: the tool counts only the buffers of MPI calls).
   compute and exchange alternate on the
   critical path (with the transfers between ranks), while the interior chain runs beside it:
   with two cores per rank, the exchange and its wait for the neighbour hide behind interior -
   the overlap this decomposition exposes. With --deps=raw+war+waw the write-after-read pairs
   are the same pairs (exchange#i rewrites in, read by compute#i; compute#i+1 rewrites out,
   read by exchange#i), and the write-after-write ones add only exchange#i -> exchange#i+1
   (in). The `tasks` trace holds the MPI_Sendrecv inside the exchange instances, so replaying
   it relates the messages between ranks to the task dependencies. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../mpi/work.h"
#include "tareador.h"

enum { HALO = 256, INTERIOR = 4096 };

static double out[HALO], in[HALO], interior[INTERIOR];

/* The task bodies are functions: what the compiler spills while running one stays in its own
   frame. Written inline in main, a spilled loop variable that one task stores and the next
   reloads would be a dependency through main's frame (the tool sees the binary, not C). */
static void __attribute__((noinline)) compute(int rank, int it)
{
   /* out depends on the halo received last time; out[0] carries (sender, iteration) */
   for (int i = 1; i < HALO; i++) out[i] = 0.5 * out[i] + 0.25 * in[i] + 1.0;
   work(out + 1, HALO - 1, 4);
   out[0] = rank * 1000 + it;
}

static void __attribute__((noinline)) exchange(int left, int right, int it)
{
   MPI_Sendrecv(out, HALO, MPI_DOUBLE, right, it, in, HALO, MPI_DOUBLE, left, it,
                MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 4;
   double check = 0;
   int bad = 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   int left = (rank + size - 1) % size, right = (rank + 1) % size;
   for (int i = 0; i < HALO; i++) out[i] = rank;
   for (int i = 0; i < INTERIOR; i++) interior[i] = rank + i % 10;

   tareador_ON();
   for (int it = 0; it < iterations; it++) {
      tareador_start_task("compute");
      compute(rank, it);
      tareador_end_task("compute");

      tareador_start_task("exchange");
      exchange(left, right, it);
      tareador_end_task("exchange");

      tareador_start_task("interior");
      work(interior, INTERIOR, 8);
      tareador_end_task("interior");
   }
   tareador_OFF();

   /* in[0] is the left neighbour's last (rank, iteration) mark. */
   if (iterations > 0 && in[0] != left * 1000 + iterations - 1) bad = 1;
   for (int i = 0; i < HALO; i++) check += out[i] + in[i];
   for (int i = 0; i < INTERIOR; i++) check += interior[i];
   double total;
   int anybad = 0;
   MPI_Reduce(&check, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
   MPI_Reduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
   if (rank == 0)
      printf("mpi_ring_tasks: %d ranks, %d iterations, checksum %.4f %s\n", size, iterations,
             total, anybad ? "WRONG" : "ok");
   MPI_Finalize();
   return rank == 0 && anybad ? 1 : 0;
}
