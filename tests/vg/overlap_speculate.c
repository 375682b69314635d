/* overlap_speculate — messages whose production is known exactly, sequential or not, for the
   speculation tests (tests/vg/speculate.sh): how many chunks speculative dataflow sends ahead
   of the call, how many it mis-speculates and how many stores stall.

   Two ranks; rank 0 sends four buffers of ELEMENTS values to rank 1 in each of ITERATIONS
   iterations (blocking sends; rank 1 receives each into a buffer of its own and reads it in
   order). In 4 chunks (--chunks=4 --chunk-min=0):

   - tag 1, written in order: production passes chunks 0, 1 and 2 (the last one leaves with the
     call), none is written again;
   - tag 2, written backwards: its first store, into the last chunk, passes the three others at
     once, and every one of them is written after it left: three mis-speculations;
   - tag 3, written in order, then chunk 1 again: one mis-speculation;
   - tag 4, written in order, but half as long every other iteration: the prediction (the same
     buffer to the same destination with the same size) never holds, nothing leaves ahead.

   Usage: overlap_speculate [ITERATIONS [ELEMENTS]]   (exactly 2 ranks; ELEMENTS a multiple of 8) */
#include <stdlib.h>

#include "overlap_test.h"

enum { BUFFERS = 4 };

/* Keeps each store where the loop puts it. */
static void barrier(void) { __asm__ volatile("" ::: "memory"); }

/* One iteration's production of the buffer of `tag` (1..4): `n` values. */
static void produce(uint64_t* out, int n, int tag, int iteration)
{
   switch (tag) {
   case 2:
      for (int i = n - 1; i >= 0; i--) out[i] = work((uint64_t)(i + iteration)), barrier();
      break;
   case 3:
      for (int i = 0; i < n; i++) out[i] = work((uint64_t)(i + iteration)), barrier();
      for (int i = n / 4; i < n / 2; i++) out[i] = work(out[i]), barrier();
      break;
   default:
      for (int i = 0; i < n; i++) out[i] = work((uint64_t)(i + iteration)), barrier();
      break;
   }
}

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 5, n = argc > 2 ? atoi(argv[2]) : 1024;
   uint64_t* buffers[BUFFERS];
   uint64_t sum = 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (refuse_unless(size == 2 && iterations >= 1 && n >= 8 && n % 8 == 0, rank,
                     "usage: overlap_speculate [ITERATIONS [ELEMENTS: a multiple of 8]] (2 ranks)"))
      return 2;
   for (int b = 0; b < BUFFERS; b++) buffers[b] = calloc((size_t)n, sizeof(uint64_t));
   for (int it = 0; it < iterations; it++)
      for (int tag = 1; tag <= BUFFERS; tag++) {
         uint64_t* buffer = buffers[tag - 1];
         int count = tag == 4 && it % 2 ? n / 2 : n;
         if (rank == 0) {
            produce(buffer, count, tag, it);
            MPI_Send(buffer, count, MPI_UINT64_T, 1, tag, MPI_COMM_WORLD);
         } else {
            MPI_Recv(buffer, n, MPI_UINT64_T, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += update(buffer, buffer, count);
         }
      }
   if (rank == 1)
      printf("overlap_speculate: %d iterations, %d elements, %llu, ok\n", iterations, n,
             (unsigned long long)(sum & 0xff));
   for (int b = 0; b < BUFFERS; b++) free(buffers[b]);
   MPI_Finalize();
   return 0;
}
