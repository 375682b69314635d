/* overlap_vcoll — collectives whose members' blocks differ, as NAS IS exchanges its keys, for
   tests/vg/overlap.sh: the overlap traces break every collective into point-to-point transfers,
   and each transfer must carry the bytes MPI moved between those two ranks (a receive smaller
   than the message it matches is a truncation; one larger is a message of the wrong size).

   Each iteration, on a skewed distribution of keys (rank r draws 1000 + 300 r keys, most of
   them small, so every pair of ranks exchanges a different number):
   - the bucket sort of IS: each rank counts the keys that fall in each rank's range, exchanges
     the counts with MPI_Alltoall, sends each rank its keys with MPI_Alltoallv (displacements
     from the counts' prefix sums) and checks that everything it received is in its range;
   - MPI_Allgatherv of r + 1 values from rank r, MPI_Gatherv of 2 r + 1 values to rank 0,
     MPI_Scatterv of r + 2 values to each rank r from rank 1, and an MPI_Gather to rank 0 whose
     root sends nothing (MPI_IN_PLACE), each checked where it lands.
   With "nonblocking", every collective is its non-blocking form (MPI_Ialltoall, ...) and a
   wait: it moves the same blocks.
   Usage: overlap_vcoll [ITERATIONS] [nonblocking]   (any number of ranks >= 2) */
#include <stdlib.h>
#include <string.h>

#include "overlap_test.h"

static int nonblocking;

/* MPI_BLOCKING(args), or MPI_NONBLOCKING(args, &request) and its wait. */
#define COLLECTIVE(BLOCKING, NONBLOCKING, ...)                 \
   do {                                                        \
      if (nonblocking) {                                       \
         MPI_Request request;                                  \
         MPI_##NONBLOCKING(__VA_ARGS__, &request);             \
         MPI_Wait(&request, MPI_STATUS_IGNORE);                \
      } else {                                                 \
         MPI_##BLOCKING(__VA_ARGS__);                          \
      }                                                        \
   } while (0)

enum { RANGE = 1 << 16 };

static uint32_t next_key(uint64_t* state)
{
   *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
   uint32_t x = (uint32_t)(*state >> 33) % RANGE;
   return (uint32_t)((uint64_t)x * x / RANGE);  /* skewed towards small keys */
}

/* The first of the values rank `from` contributes in iteration `it` (the others follow). */
static int value(int from, int it) { return 1000 * from + it; }

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 3;
   long errors = 0;
   nonblocking = argc > 2 && strcmp(argv[2], "nonblocking") == 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (refuse_unless(size >= 2 && iterations >= 1, rank,
                     "usage: overlap_vcoll [ITERATIONS] [nonblocking] (at least 2 ranks)"))
      return 2;
   const int n = 1000 + 300 * rank;
   uint32_t* keys = malloc(n * sizeof *keys);
   uint32_t* sorted = malloc(n * sizeof *sorted);
   int *counts = calloc(size, sizeof(int)), *displs = calloc(size, sizeof(int));
   int *rcounts = calloc(size, sizeof(int)), *rdispls = calloc(size, sizeof(int));
   int *vcounts = calloc(size, sizeof(int)), *vdispls = calloc(size, sizeof(int));
   int total = 0;
   for (int r = 0; r < size; r++) total += 2 * r + 2;  /* room for the largest v collective */
   int *out = malloc(total * sizeof(int)), *in = malloc(total * sizeof(int));
   uint32_t* received = NULL;
   uint64_t state = 12345 + (uint64_t)rank;
   for (int it = 0; it < iterations; it++) {
      /* The bucket sort's key exchange. */
      for (int r = 0; r < size; r++) counts[r] = 0;
      for (int i = 0; i < n; i++) counts[(uint64_t)(keys[i] = next_key(&state)) * size / RANGE]++;
      for (int r = 1; r < size; r++) displs[r] = displs[r - 1] + counts[r - 1];
      for (int r = 0; r < size; r++) vdispls[r] = displs[r];  /* where the next key of r goes */
      for (int i = 0; i < n; i++) sorted[vdispls[(uint64_t)keys[i] * size / RANGE]++] = keys[i];
      COLLECTIVE(Alltoall, Ialltoall, counts, 1, MPI_INT, rcounts, 1, MPI_INT, MPI_COMM_WORLD);
      int got = 0;
      for (int r = 0; r < size; r++) {
         rdispls[r] = got;
         got += rcounts[r];
      }
      received = realloc(received, (got > 0 ? got : 1) * sizeof *received);
      COLLECTIVE(Alltoallv, Ialltoallv, sorted, counts, displs, MPI_UINT32_T, received, rcounts,
                 rdispls, MPI_UINT32_T, MPI_COMM_WORLD);
      for (int i = 0; i < got; i++)
         errors += (int)((uint64_t)received[i] * size / RANGE) != rank;

      /* Blocks of r + 1, 2 r + 1 and r + 2 values. */
      for (int r = 0, at = 0; r < size; at += r + 1, r++) vcounts[r] = r + 1, vdispls[r] = at;
      for (int i = 0; i <= rank; i++) out[i] = value(rank, it) + i;
      COLLECTIVE(Allgatherv, Iallgatherv, out, rank + 1, MPI_INT, in, vcounts, vdispls, MPI_INT,
                 MPI_COMM_WORLD);
      for (int r = 0; r < size; r++)
         for (int i = 0; i <= r; i++) errors += in[vdispls[r] + i] != value(r, it) + i;
      for (int r = 0, at = 0; r < size; at += 2 * r + 1, r++) vcounts[r] = 2 * r + 1, vdispls[r] = at;
      for (int i = 0; i <= 2 * rank; i++) out[i] = value(rank, it) + i;
      COLLECTIVE(Gatherv, Igatherv, out, 2 * rank + 1, MPI_INT, in, vcounts, vdispls, MPI_INT, 0,
                 MPI_COMM_WORLD);
      if (rank == 0)
         for (int r = 0; r < size; r++)
            for (int i = 0; i <= 2 * r; i++) errors += in[vdispls[r] + i] != value(r, it) + i;
      for (int r = 0, at = 0; r < size; at += r + 2, r++) vcounts[r] = r + 2, vdispls[r] = at;
      if (rank == 1)
         for (int r = 0; r < size; r++)
            for (int i = 0; i < r + 2; i++) out[vdispls[r] + i] = value(r, it) + i;
      COLLECTIVE(Scatterv, Iscatterv, out, vcounts, vdispls, MPI_INT, in, rank + 2, MPI_INT, 1,
                 MPI_COMM_WORLD);
      for (int i = 0; i < rank + 2; i++) errors += in[i] != value(rank, it) + i;

      /* MPI_Gather of 3 values each, the root's own already in place (it sends nothing). */
      int* mine = rank == 0 ? in : out;
      for (int i = 0; i < 3; i++) mine[i] = value(rank, it) + i;
      COLLECTIVE(Gather, Igather, rank == 0 ? MPI_IN_PLACE : out, 3, MPI_INT, in, 3, MPI_INT, 0,
                 MPI_COMM_WORLD);
      if (rank == 0)
         for (int r = 0; r < size; r++)
            for (int i = 0; i < 3; i++) errors += in[3 * r + i] != value(r, it) + i;
   }
   long all = 0;
   MPI_Reduce(&errors, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
   if (rank == 0)
      printf("overlap_vcoll: %d ranks, %d iterations%s, %s\n", size, iterations,
             nonblocking ? " (non-blocking)" : "", all ? "WRONG" : "ok");
   free(keys), free(sorted), free(counts), free(displs), free(rcounts), free(rdispls);
   free(vcounts), free(vdispls), free(out), free(in), free(received);
   MPI_Finalize();
   return all != 0;
}
