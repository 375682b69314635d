/* overlap_test.h — what the overlap test programs (tests/vg/overlap_*.c) share: the refusal of
   wrong arguments after MPI_Init, and the work of one element (the same instructions for every
   element; the compiler cannot drop it, its result goes through an asm it cannot see into). */
#ifndef TESTS_VG_OVERLAP_TEST_H
#define TESTS_VG_OVERLAP_TEST_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

enum { WORK_ROUNDS = 32 };

static inline uint64_t work(uint64_t x)
{
   for (int r = 0; r < WORK_ROUNDS; r++) {
      x ^= x >> 29;
      x *= 0xbf58476d1ce4e5b9ULL;
      __asm__("" : "+r"(x));
   }
   return x;
}

/* out[i] from in[i] for `n` values; returns a checksum of what it read. */
static inline uint64_t update(const uint64_t* in, uint64_t* out, int n)
{
   uint64_t sum = 0;
   for (int i = 0; i < n; i++) {
      out[i] = work(in[i] + (uint64_t)i);
      sum += in[i];
   }
   return sum;
}

/* Unless `ok`, rank 0 prints `usage` and MPI is finalized: returns 1, and the program exits
   with status 2. */
static inline int refuse_unless(int ok, int rank, const char* usage)
{
   if (ok) return 0;
   if (rank == 0) fprintf(stderr, "%s\n", usage);
   MPI_Finalize();
   return 1;
}

#endif
