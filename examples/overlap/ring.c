/* ring — balanced exchange (thesis 5.1, Fig. 5.1a) with a known production/consumption pattern:
   in every iteration every rank computes the same burst, reading the buffer it received from
   its left neighbour and producing the one it sends to its right neighbour (patterns.h), then
   the ranks exchange: immediate receive from the left, immediate send to the right, wait for
   both. During the bursts the network is idle; during the exchange every processor is.
   Usage: ring linear|packed|revisit [ITERATIONS [ELEMENTS [STEPS]]]   (any number of ranks >= 2)

   Values: rank r sends out[i] = in[i] + r + 1, so after t exchanges its in[i] is
   i + sum_{k=1..t} (((r - k) mod p) + 1); every element is checked when it is consumed. */
#include "patterns.h"

static uint64_t ring_expect(int rank, int size, int t)
{
   uint64_t e = 0;
   for (int k = 1; k <= t; k++) e += (uint64_t)(((rank - k) % size + size) % size) + 1;
   return e;
}

int main(int argc, char** argv)
{
   int rank, size;
   struct options o;
   if (!begin(&argc, &argv, "balanced exchange around a ring", &o, &rank, &size)) return 2;
   const int n = o.elements, left = (rank + size - 1) % size, right = (rank + 1) % size;
   uint64_t *in = buffer(n, 1), *out = buffer(n, 0), *local = buffer(n, 0);
   long errors = 0;
   for (int it = 0; it < o.iterations; it++) {
      struct flow f = {in, out, local, ring_expect(rank, size, it), (uint64_t)rank + 1};
      MPI_Request requests[2];
      MPI_Status statuses[2];
      errors += burst(o.pattern, &f, 1, n, o.steps, it);
      MPI_Irecv(in, n, MPI_UINT64_T, left, it, MPI_COMM_WORLD, &requests[0]);
      MPI_Isend(out, n, MPI_UINT64_T, right, it, MPI_COMM_WORLD, &requests[1]);
      MPI_Waitall(2, requests, statuses);
   }
   errors += check(in, n, ring_expect(rank, size, o.iterations));
   int status = verdict("ring", &o, rank, size, errors);
   free(in), free(out), free(local);
   MPI_Finalize();
   return status;
}
