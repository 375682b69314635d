/* transpose — collectives with a known production/consumption pattern (NAS FT's transposes and
   checksums, IS's key exchange): in every iteration every rank computes a burst that consumes
   what the previous iteration's collectives delivered and produces what the next ones send,
   then the ranks exchange a block of values with each other (MPI_Alltoall), sum a vector over
   the ranks (MPI_Allreduce) and take a table from rank 0 (MPI_Bcast). Each buffer holds p
   blocks of ELEMENTS 8-byte values (p ranks). The burst touches them in one of two patterns
   (patterns.h):

   - LINEAR  element i of every buffer is read, and written, at about i/n of the burst;
   - PACKED  everything received is unpacked into private arrays at the very start, the work
             runs on those, and everything sent is packed at the very end: nothing can be sent
             early or received late, so automatic overlap gains nothing over the same run with
             the collectives as point-to-point transfers.

   Usage: transpose linear|packed [ITERATIONS [ELEMENTS [STEPS]]]   (any number of ranks >= 2)

   Values: the block rank r sends rank b in iteration t holds cell(r, b, j, t); the sum of the
   vectors is p (i + t) + p (p - 1) / 2; rank 0's table holds cell(0, 0, i, t). Every value
   received is checked when it is consumed, in the next iteration (the last ones at the end). */
#include "patterns.h"

static uint64_t cell(int from, int to, int j, int iteration)
{
   return ((uint64_t)from << 48) ^ ((uint64_t)to << 36) ^ ((uint64_t)iteration << 24) ^ (uint64_t)j;
}

/* Where the collectives deliver (in) and take (out) the values of one iteration. */
struct exchange {
   uint64_t *received, *sum, *table;  /* in: MPI_Alltoall's, MPI_Allreduce's, MPI_Bcast's */
   uint64_t *send, *vector;           /* out: MPI_Alltoall's and MPI_Allreduce's (and table) */
};

/* The number of values of element i that were not what iteration t - 1 delivered. */
static long wrong_values(const struct exchange* x, int i, int block, int rank, int size, int t)
{
   if (t < 0) return 0;
   return (x->received[i] != cell(i / block, rank, i % block, t)) +
          (x->sum[i] != (uint64_t)size * ((uint64_t)i + t) + (uint64_t)size * (size - 1) / 2) +
          (x->table[i] != cell(0, 0, i, t));
}

/* The values of element i that iteration t sends, plus `w` (an opaque zero: the work). */
static void fill(const struct exchange* x, int i, int block, int rank, int t, uint64_t w)
{
   x->send[i] = cell(rank, i / block, i % block, t) + w;
   x->vector[i] = (uint64_t)i + t + rank + w;
   if (rank == 0) x->table[i] = cell(0, 0, i, t) + w;
}

/* One burst of iteration t over the n values of each buffer: checks what t - 1 delivered, does
   the work, writes what t sends. `copy` is the private exchange of the PACKED pattern. */
static long burst_of(enum pattern pattern, const struct exchange* x, const struct exchange* copy,
                     int n, int block, int rank, int size, int steps, int t)
{
   const uint64_t zero = opaque(0);
   long errors = 0;
   const struct exchange* at = pattern == PACKED ? copy : x;
   if (pattern == PACKED) { /* unpack */
      for (int i = 0; i < n; i++) {
         copy->received[i] = x->received[i];
         copy->sum[i] = x->sum[i];
         copy->table[i] = x->table[i];
      }
      barrier();
   }
   for (int i = 0; i < n; i++) {
      uint64_t w = mix(seed(i, t, 0), steps) & zero;
      errors += wrong_values(at, i, block, rank, size, t - 1);
      fill(at, i, block, rank, t, w);
      barrier();
   }
   if (pattern == PACKED) { /* pack */
      for (int i = 0; i < n; i++) {
         x->send[i] = copy->send[i];
         x->vector[i] = copy->vector[i];
         if (rank == 0) x->table[i] = copy->table[i];
      }
      barrier();
   }
   return errors;
}

int main(int argc, char** argv)
{
   int rank, size;
   struct options o;
   if (!begin(&argc, &argv, "alltoall, allreduce and broadcast of blocks of ELEMENTS values",
              &o, &rank, &size))
      return 2;
   if (o.pattern == REVISIT) {
      if (rank == 0) fprintf(stderr, "%s: the patterns are linear and packed\n", argv[0]);
      MPI_Finalize();
      return 2;
   }
   const int block = o.elements, n = block * size;
   struct exchange x = {buffer(n, 0), buffer(n, 0), buffer(n, 0), buffer(n, 0), buffer(n, 0)};
   struct exchange copy = {buffer(n, 0), buffer(n, 0), buffer(n, 0), buffer(n, 0), buffer(n, 0)};
   long errors = 0;
   for (int it = 0; it < o.iterations; it++) {
      errors += burst_of(o.pattern, &x, &copy, n, block, rank, size, o.steps, it);
      MPI_Alltoall(x.send, block, MPI_UINT64_T, x.received, block, MPI_UINT64_T, MPI_COMM_WORLD);
      MPI_Allreduce(x.vector, x.sum, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      MPI_Bcast(x.table, n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
   }
   for (int i = 0; i < n; i++) errors += wrong_values(&x, i, block, rank, size, o.iterations - 1);
   int status = verdict("transpose", &o, rank, size, errors);
   uint64_t* buffers[] = {x.received, x.sum, x.table, x.send, x.vector,
                          copy.received, copy.sum, copy.table, copy.send, copy.vector};
   for (size_t b = 0; b < sizeof buffers / sizeof buffers[0]; b++) free(buffers[b]);
   MPI_Finalize();
   return status;
}
