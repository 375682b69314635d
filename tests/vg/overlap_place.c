/* overlap_place — messages whose production and consumption patterns are known exactly, for the
   placement tests of the overlap streams (tests/vg/overlap.sh). Two ranks; each burst does the
   same work per element, so element i's store or first load falls at (i + 1) / n or i / n of
   the burst.

   rank 0 produces `out` and sends it five times (tags 0..4): tag 0 opens the first production
   interval; tag 1 after writing it in order (linear), tag 2 in reverse order, tag 3 all at the
   end (work first, then a quick pack), tag 4 after no store at all (it only works).
   rank 1 receives into `in` five times; each consumption interval lasts until the next receive:
   after tag 0 it reads in order (linear), after tag 1 all at the start (a quick unpack, then
   the work), after tag 2 in reverse order, after tag 3 nothing (it only works); tag 4 closes.
   Then a message through a derived datatype (every other element of a buffer twice as long,
   MPI_Type_vector): sent from there with tags 5 and 6 (between them rank 0 writes its
   elements in order), received there by rank 1 with tags 5 and 6 (between them it reads them
   in order). Its chunks are ranges of the bytes sent, so they fall as a contiguous linear
   message's do. Then two empty messages (tags 7 and 8), and the same as the strided message
   with a block of a matrix (MPI_Type_create_subarray, tags 9 and 10).
   Usage: overlap_place [ELEMENTS]   (exactly 2 ranks) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { ROUNDS = 128 };

/* The work of one element: the same instructions for every element; the compiler cannot drop
   it (its result goes through an asm it cannot see into). */
static uint64_t work(uint64_t x)
{
   for (int r = 0; r < ROUNDS; r++) {
      x ^= x >> 29;
      x *= 0xbf58476d1ce4e5b9ULL;
      __asm__("" : "+r"(x));
   }
   return x;
}

static void barrier(void) { __asm__ volatile("" ::: "memory"); }

static void produce(uint64_t* out, uint64_t* local, int n, int tag)
{
   switch (tag) {
   case 1: /* linear */
      for (int i = 0; i < n; i++) out[i] = work((uint64_t)i), barrier();
      break;
   case 2: /* reversed */
      for (int i = n - 1; i >= 0; i--) out[i] = work((uint64_t)i), barrier();
      break;
   case 3: /* all at the end */
      for (int i = 0; i < n; i++) local[i] = work((uint64_t)i), barrier();
      for (int i = 0; i < n; i++) out[i] = local[i];
      barrier();
      break;
   case 4: /* nothing */
      for (int i = 0; i < n; i++) local[i] = work((uint64_t)i), barrier();
      break;
   }
}

static uint64_t consume(const uint64_t* in, uint64_t* local, int n, int tag)
{
   uint64_t sum = 0;
   switch (tag) {
   case 0: /* linear */
      for (int i = 0; i < n; i++) sum += work(in[i]), barrier();
      break;
   case 1: /* everything at the start */
      for (int i = 0; i < n; i++) local[i] = in[i];
      barrier();
      for (int i = 0; i < n; i++) sum += work(local[i]), barrier();
      break;
   case 2: /* reversed */
      for (int i = n - 1; i >= 0; i--) sum += work(in[i]), barrier();
      break;
   case 3: /* nothing */
      for (int i = 0; i < n; i++) sum += work(local[i]), barrier();
      break;
   }
   return sum;
}

int main(int argc, char** argv)
{
   int rank, size, n = argc > 1 ? atoi(argv[1]) : 2048;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (size != 2 || n < 64 || n % 64) {
      if (rank == 0) fprintf(stderr, "usage: overlap_place [ELEMENTS: a multiple of 64] (2 ranks)\n");
      MPI_Finalize();
      return 2;
   }
   uint64_t* buffer = calloc((size_t)n, sizeof *buffer);
   uint64_t* local = calloc((size_t)n, sizeof *local);
   uint64_t sum = 0;
   for (int tag = 0; tag <= 4; tag++) {
      if (rank == 0) {
         produce(buffer, local, n, tag);
         MPI_Send(buffer, n, MPI_UINT64_T, 1, tag, MPI_COMM_WORLD);
      } else {
         MPI_Recv(buffer, n, MPI_UINT64_T, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         if (tag < 4) sum += consume(buffer, local, n, tag);
      }
   }
   /* the strided message */
   uint64_t* strided = calloc(2 * (size_t)n, sizeof *strided);
   MPI_Datatype every_other;
   MPI_Type_vector(n, 1, 2, MPI_UINT64_T, &every_other);
   MPI_Type_commit(&every_other);
   for (int tag = 5; tag <= 6; tag++) {
      if (rank == 0) {
         if (tag == 6)
            for (int i = 0; i < n; i++) strided[2 * i] = work((uint64_t)i), barrier();
         MPI_Send(strided, 1, every_other, 1, tag, MPI_COMM_WORLD);
      } else {
         MPI_Recv(strided, 1, every_other, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         if (tag == 5)
            for (int i = 0; i < n; i++) sum += work(strided[2 * i]), barrier();
      }
   }
   /* an empty message, twice from the same buffer: a synchronisation, nothing to chunk */
   for (int tag = 7; tag <= 8; tag++) {
      if (rank == 0) MPI_Send(strided, 0, MPI_UINT64_T, 1, tag, MPI_COMM_WORLD);
      else MPI_Recv(strided, 0, MPI_UINT64_T, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
   }
   /* a block of a matrix (MPI_Type_create_subarray): the right half of `strided` seen as
      rows of 128 elements, written and read row by row */
   const int rows = n / 64;
   MPI_Datatype right_half;
   MPI_Type_create_subarray(2, (int[]){rows, 128}, (int[]){rows, 64}, (int[]){0, 64}, MPI_ORDER_C,
                            MPI_UINT64_T, &right_half);
   MPI_Type_commit(&right_half);
   for (int tag = 9; tag <= 10; tag++) {
      if (rank == 0) {
         if (tag == 10)
            for (int i = 0; i < n; i++) strided[(i / 64) * 128 + 64 + i % 64] = work((uint64_t)i), barrier();
         MPI_Send(strided, 1, right_half, 1, tag, MPI_COMM_WORLD);
      } else {
         MPI_Recv(strided, 1, right_half, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         if (tag == 9)
            for (int i = 0; i < n; i++) sum += work(strided[(i / 64) * 128 + 64 + i % 64]), barrier();
      }
   }
   MPI_Type_free(&right_half);
   MPI_Type_free(&every_other);
   free(strided);
   if (rank == 1) printf("overlap_place: %d elements, %llu\n", n, (unsigned long long)(sum & 0xff));
   free(buffer);
   free(local);
   MPI_Finalize();
   return 0;
}
