/* imbalance — micro-imbalanced execution (thesis 5.1, Fig. 5.1b) with a known
   production/consumption pattern: in each iteration one rank, a different one each time
   (rank it mod p), computes twice as long (twice the steps of work per element); then every
   rank exchanges halos with both neighbours (immediate receives from the left and the right,
   immediate sends to the right and the left, one wait for all four). Over the iterations every
   rank does the same work, but every iteration waits for its slowest neighbour.
   A burst reads both received buffers and produces both buffers to send (patterns.h: two flows,
   from the left's message to the one sent right, from the right's to the one sent left).
   Usage: imbalance linear|packed|revisit [ITERATIONS [ELEMENTS [STEPS]]]   (ranks >= 2)

   Values: rank r sends outright[i] = inleft[i] + r + 1 and outleft[i] = inright[i] + r + 1, so
   after t exchanges inleft[i] = i + sum_{k=1..t} (((r - k) mod p) + 1) and
   inright[i] = i + sum_{k=1..t} (((r + k) mod p) + 1). */
#include "patterns.h"

static uint64_t expect(int rank, int size, int t, int direction)
{
   uint64_t e = 0;
   for (int k = 1; k <= t; k++) e += (uint64_t)(((rank - direction * k) % size + size) % size) + 1;
   return e;
}

int main(int argc, char** argv)
{
   int rank, size;
   struct options o;
   if (!begin(&argc, &argv, "micro-imbalanced halo exchange", &o, &rank, &size)) return 2;
   const int n = o.elements, left = (rank + size - 1) % size, right = (rank + 1) % size;
   enum { RIGHTWARD = 0, LEFTWARD = 1 }; /* tags: a message going right, one going left */
   uint64_t *inleft = buffer(n, 1), *inright = buffer(n, 1);
   uint64_t *outright = buffer(n, 0), *outleft = buffer(n, 0);
   uint64_t *local0 = buffer(n, 0), *local1 = buffer(n, 0);
   long errors = 0;
   for (int it = 0; it < o.iterations; it++) {
      struct flow f[2] = {
         {inleft, outright, local0, expect(rank, size, it, 1), (uint64_t)rank + 1},
         {inright, outleft, local1, expect(rank, size, it, -1), (uint64_t)rank + 1},
      };
      MPI_Request requests[4];
      MPI_Status statuses[4];
      errors += burst(o.pattern, f, 2, n, it % size == rank ? 2 * o.steps : o.steps, it);
      MPI_Irecv(inleft, n, MPI_UINT64_T, left, RIGHTWARD, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(inright, n, MPI_UINT64_T, right, LEFTWARD, MPI_COMM_WORLD, &requests[1]);
      MPI_Isend(outright, n, MPI_UINT64_T, right, RIGHTWARD, MPI_COMM_WORLD, &requests[2]);
      MPI_Isend(outleft, n, MPI_UINT64_T, left, LEFTWARD, MPI_COMM_WORLD, &requests[3]);
      MPI_Waitall(4, requests, statuses);
   }
   errors += check(inleft, n, expect(rank, size, o.iterations, 1));
   errors += check(inright, n, expect(rank, size, o.iterations, -1));
   int status = verdict("imbalance", &o, rank, size, errors);
   free(inleft), free(inright), free(outright), free(outleft), free(local0), free(local1);
   MPI_Finalize();
   return status;
}
