/* overlap_fft — the transposes of NAS FT, for tests/vg/overlap.sh: every iteration, each rank
   unpacks the blocks the last MPI_Alltoall delivered (at the very start of its burst), works on
   its private copy, and packs the blocks for the next one at the very end, in the order of the
   send buffer (the block for rank 0 first). Nothing can be sent early or received late, so
   overlapping gains nothing over the same run with the alltoall as point-to-point transfers;
   but the blocks are large (128 KiB: 4 chunks by default), and a pairwise exchange sends them
   in rounds (rank r to r + 1 first) that are not the order they were packed in. Chunks of a
   later round sent among those of an earlier one held links that other ranks' earlier rounds
   waited for: 0.63x at 1 MB/s, 0.81x at 10 MB/s.
   Usage: overlap_fft [ITERATIONS [ELEMENTS]]   (any number of ranks >= 2; ELEMENTS 8-byte
   values per block, 16384 by default) */
#include <stdlib.h>

#include "overlap_test.h"

static uint64_t cell(int from, int to, int j, int iteration)
{
   return ((uint64_t)from << 48) ^ ((uint64_t)to << 36) ^ ((uint64_t)iteration << 24) ^ (uint64_t)j;
}

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 6, block = argc > 2 ? atoi(argv[2]) : 16384;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (refuse_unless(size >= 2 && iterations >= 1 && block >= 1, rank,
                     "usage: overlap_fft [ITERATIONS [ELEMENTS]] (at least 2 ranks)"))
      return 2;
   const int n = block * size;
   uint64_t *send = calloc(n, sizeof(uint64_t)), *received = calloc(n, sizeof(uint64_t));
   uint64_t *local = calloc(n, sizeof(uint64_t));
   long errors = 0;
   for (int it = 0; it < iterations; it++) {
      for (int i = 0; it > 0 && i < n; i++) {  /* unpack, checking what the last one delivered */
         local[i] = received[i];
         errors += local[i] != cell(i / block, rank, i % block, it - 1);
      }
      uint64_t done = 0, zero = 0;  /* the work's result, through a zero the compiler cannot see */
      for (int i = 0; i < n; i++) done += work(local[i] + (uint64_t)i);
      __asm__("" : "+r"(zero));
      zero &= done;
      for (int i = 0; i < n; i++) send[i] = cell(rank, i / block, i % block, it) + zero;  /* pack */
      MPI_Alltoall(send, block, MPI_UINT64_T, received, block, MPI_UINT64_T, MPI_COMM_WORLD);
   }
   for (int i = 0; i < n; i++) errors += received[i] != cell(i / block, rank, i % block, iterations - 1);
   long all = 0;
   MPI_Reduce(&errors, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
   if (rank == 0)
      printf("overlap_fft: %d ranks, %d iterations, %d elements, %s\n", size, iterations, block,
             all ? "WRONG" : "ok");
   free(send), free(received), free(local);
   MPI_Finalize();
   return all != 0;
}
