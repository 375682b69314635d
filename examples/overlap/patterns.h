/* patterns.h — what the overlap examples share: one computation burst, written in three
   production/consumption patterns of the buffers it receives and sends (thesis 5.2, 5.4.2).

   A burst transforms each of its flows: it reads the received buffer `in`, does `steps` rounds of
   a mixing function per element (the work), and writes the buffer to send, `out`, with
   out[i] = in[i] + add. The three patterns do the same work and compute the same values; only
   the moments at which the two buffers are touched differ:

   - LINEAR  element by element: in[i] is first read, and out[i] written, at about i/n of the
             burst (the ideal pattern: chunk k of 4 ready at (k+1)/4, needed at k/4).
   - PACKED  the NAS-BT pattern: in is unpacked (copied into a private array) at the very start,
             the work runs on the private array, and out is packed from it at the very end.
   - REVISIT the Sweep3D-like pattern: SWEEPS sweeps over the buffer, each with a quarter of the
             work, rewrite every element of out; in is read in the first sweep. The final version
             of element i is stored at about (3 + i/n)/4 of the burst, in[i] is first read at
             about i/(4n).

   The work's result enters each element through an opaque zero (`w & zero`), so the values stay
   exactly predictable (every received element is checked against its closed form) while the
   compiler must do all the work; a compiler barrier after each element keeps the stores where
   the pattern puts them. */
#ifndef EXAMPLES_OVERLAP_PATTERNS_H
#define EXAMPLES_OVERLAP_PATTERNS_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pattern { LINEAR, PACKED, REVISIT };
static const char* const pattern_names[] = {"linear", "packed", "revisit"};
enum { SWEEPS = 4 };

/* The defaults: 16384 elements of 8 bytes (128 KiB messages), 16 rounds of work per element
   (about 2.3 million instructions per burst). */
struct options {
   enum pattern pattern;
   int iterations, elements, steps;
};

/* One buffer that a burst reads (in, whose element i must be i + expect) and one it writes
   (out[i] = in[i] + add); `local` is the private array of the PACKED pattern. */
struct flow {
   const uint64_t* in;
   uint64_t* out;
   uint64_t* local;
   uint64_t expect, add;
};

static inline uint64_t opaque(uint64_t v)
{
   __asm__("" : "+r"(v));
   return v;
}

static inline void barrier(void) { __asm__ volatile("" ::: "memory"); }

/* The work of one element: `steps` rounds of a 64-bit mixer, the same instructions each round. */
static inline uint64_t mix(uint64_t x, int steps)
{
   for (int s = 0; s < steps; s++) {
      x ^= x >> 31;
      x *= 0x7fb5d329728ea185ULL;
      x ^= x >> 27;
   }
   return x;
}

static inline uint64_t seed(int i, int iteration, int sweep)
{
   return ((uint64_t)i * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)iteration << 40) ^ (uint64_t)sweep;
}

/* One burst over n elements of every flow, with `steps` rounds of work per element; returns the
   number of received elements that did not have their expected value. */
static inline long burst(enum pattern pattern, struct flow* flows, int nflows, int n, int steps,
                  int iteration)
{
   const uint64_t zero = opaque(0);
   long errors = 0;
   switch (pattern) {
   case LINEAR:
      for (int i = 0; i < n; i++) {
         uint64_t w = mix(seed(i, iteration, 0), steps) & zero;
         for (int f = 0; f < nflows; f++) {
            uint64_t x = flows[f].in[i];
            errors += x != (uint64_t)i + flows[f].expect;
            flows[f].out[i] = x + flows[f].add + w;
         }
         barrier();
      }
      break;
   case PACKED:
      for (int f = 0; f < nflows; f++) /* unpack */
         for (int i = 0; i < n; i++) flows[f].local[i] = flows[f].in[i];
      barrier();
      for (int i = 0; i < n; i++) {
         uint64_t w = mix(seed(i, iteration, 0), steps) & zero;
         for (int f = 0; f < nflows; f++) {
            uint64_t x = flows[f].local[i];
            errors += x != (uint64_t)i + flows[f].expect;
            flows[f].local[i] = x + flows[f].add + w;
         }
         barrier();
      }
      for (int f = 0; f < nflows; f++) /* pack */
         for (int i = 0; i < n; i++) flows[f].out[i] = flows[f].local[i];
      barrier();
      break;
   case REVISIT:
      for (int sweep = 0; sweep < SWEEPS; sweep++)
         for (int i = 0; i < n; i++) {
            uint64_t w = mix(seed(i, iteration, sweep), steps / SWEEPS) & zero;
            for (int f = 0; f < nflows; f++) {
               if (sweep == 0) { /* the first sweep reads in; each sweep adds one to out */
                  uint64_t x = flows[f].in[i];
                  errors += x != (uint64_t)i + flows[f].expect;
                  flows[f].out[i] = x + flows[f].add - (SWEEPS - 1) + w;
               } else
                  flows[f].out[i] = flows[f].out[i] + 1 + w;
            }
            barrier();
         }
      break;
   }
   return errors;
}

/* The last received buffer, checked in a short final burst (read linearly). */
static inline long check(const uint64_t* in, int n, uint64_t expect)
{
   long errors = 0;
   for (int i = 0; i < n; i++) errors += in[i] != (uint64_t)i + expect;
   return errors;
}

static inline uint64_t* buffer(int n, int initial)
{
   uint64_t* b = malloc((size_t)n * sizeof *b);
   if (!b) {
      perror("malloc");
      MPI_Abort(MPI_COMM_WORLD, 1);
   }
   for (int i = 0; i < n; i++) b[i] = initial ? (uint64_t)i : 0;
   return b;
}

/* PROGRAM PATTERN [ITERATIONS [ELEMENTS [STEPS]]]; on a bad command line rank 0 prints the
   usage and the result is 0. */
static inline int parse(int argc, char** argv, int rank, int size, const char* usage,
                 struct options* o)
{
   o->pattern = LINEAR;
   o->iterations = 8;
   o->elements = 16384;
   o->steps = 16;
   int ok = argc >= 2 && argc <= 5, found = 0;
   for (int p = 0; ok && p < 3; p++)
      if (strcmp(argv[1], pattern_names[p]) == 0) o->pattern = (enum pattern)p, found = 1;
   ok = ok && found;
   if (ok && argc > 2) ok = (o->iterations = atoi(argv[2])) >= 1;
   if (ok && argc > 3) ok = (o->elements = atoi(argv[3])) >= 1;
   if (ok && argc > 4) ok = (o->steps = atoi(argv[4])) >= SWEEPS;
   if (!ok && rank == 0)
      fprintf(stderr,
              "usage: %s linear|packed|revisit [ITERATIONS [ELEMENTS [STEPS]]]\n%s\n"
              "defaults: 8 iterations, 16384 elements of 8 bytes (128 KiB messages), 16 steps of "
              "work per element (at least %d)\n",
              argv[0], usage, SWEEPS);
   if (ok && size < 2) {
      if (rank == 0) fprintf(stderr, "%s: needs at least 2 ranks\n", argv[0]);
      ok = 0;
   }
   return ok;
}

/* MPI_Init, this rank and the number of ranks, and the command line; on a bad one, MPI_Finalize
   and 0 (the program then exits with status 2). */
static inline int begin(int* argc, char*** argv, const char* usage, struct options* o, int* rank,
                        int* size)
{
   MPI_Init(argc, argv);
   MPI_Comm_rank(MPI_COMM_WORLD, rank);
   MPI_Comm_size(MPI_COMM_WORLD, size);
   if (parse(*argc, *argv, *rank, *size, usage, o)) return 1;
   MPI_Finalize();
   return 0;
}

/* Every rank's error count, summed at rank 0, which prints the verdict: 0 if all is well. */
static inline int verdict(const char* name, const struct options* o, int rank, int size, long errors)
{
   long total = 0;
   MPI_Reduce(&errors, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
   if (rank == 0) {
      printf("%s %s: %d ranks, %d iterations, %d elements (%d KiB messages), %d steps: ", name,
             pattern_names[o->pattern], size, o->iterations, o->elements,
             (int)((o->elements * sizeof(uint64_t) + 1023) / 1024), o->steps);
      if (total == 0)
         printf("ok\n");
      else
         printf("FAILED: %ld elements with a wrong value\n", total);
   }
   return total == 0 || rank != 0 ? 0 : 1;
}

#endif
