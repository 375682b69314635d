/* pipeline (thesis 5.1, Fig. 5.1c) with a known production/consumption pattern: each rank waits
   for the previous one — rank r receives from rank r-1 (blocking MPI_Recv), computes a burst
   that consumes what it received and produces what it sends (patterns.h), and forwards it to
   rank r+1 (blocking MPI_Send). The pipeline is cyclic: rank 0 waits for what rank p-1 sent in
   the previous iteration (in the first one it starts on its own; in the last one rank p-1 sends
   nothing). So only one rank computes at a time: one iteration takes p bursts, and with
   messages in c chunks and linear patterns each rank could start a chunk's time after its
   predecessor, which is where the overlap speedup of min(p, c) at high bandwidth comes from
   (thesis 5.2.1).
   Usage: pipeline linear|packed|revisit [ITERATIONS [ELEMENTS [STEPS]]]   (ranks >= 2)

   Values: every rank adds r + 1 to what it receives, so the message received at iteration t by
   rank r holds i + t p (p + 1) / 2 + r (r + 1) / 2 (rank 0 starts from i). */
#include "patterns.h"

int main(int argc, char** argv)
{
   int rank, size;
   struct options o;
   if (!begin(&argc, &argv, "cyclic pipeline", &o, &rank, &size)) return 2;
   const int n = o.elements, previous = (rank + size - 1) % size, next = (rank + 1) % size;
   uint64_t *in = buffer(n, 1), *out = buffer(n, 0), *local = buffer(n, 0);
   long errors = 0;
   for (int it = 0; it < o.iterations; it++) {
      /* rank 0 receives what rank p-1 sent in the previous iteration (tag: that iteration) */
      if (rank > 0)
         MPI_Recv(in, n, MPI_UINT64_T, previous, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else if (it > 0)
         MPI_Recv(in, n, MPI_UINT64_T, previous, it - 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      uint64_t expect = (uint64_t)it * size * (size + 1) / 2 + (uint64_t)rank * (rank + 1) / 2;
      struct flow f = {in, out, local, expect, (uint64_t)rank + 1};
      errors += burst(o.pattern, &f, 1, n, o.steps, it);
      if (rank < size - 1 || it < o.iterations - 1)
         MPI_Send(out, n, MPI_UINT64_T, next, it, MPI_COMM_WORLD);
   }
   int status = verdict("pipeline", &o, rank, size, errors);
   free(in), free(out), free(local);
   MPI_Finalize();
   return status;
}
