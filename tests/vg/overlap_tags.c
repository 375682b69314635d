/* overlap_tags — point-to-point messages whose tags reach the ends of MPI's tag space, among
   collectives, for the test that the overlap streams keep chunks of unrelated messages apart
   (tests/vg/overlap.sh): the chunks of a message of tag T have tags of their own, and a
   collective's transfers tags no MPI tag can have, whatever T is up to MPI_TAG_UB.

   Rank 0 sends rank 1, each round, four messages of ELEMENTS 8-byte values, between a broadcast
   and an allreduce on MPI_COMM_WORLD (whose transfers also go from rank 0 to rank 1):
   - tag 2^20 and 2^20 + 1 (where the collectives' tags once began), received in the other
     order;
   - tag MPI_TAG_UB (2^31 - 1 in Open MPI, 2^28 - 1 in MPICH), received through MPI_ANY_TAG;
   - a message of half as many values, received with room for twice as many (the receive
     learns its size when it completes).
   Each is written and read in order, so its chunks leave and are needed at different moments.
   Every value received is checked. Usage: overlap_tags   (at least 2 ranks) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { ELEMENTS = 512, ROUNDS = 2, SHORT = ELEMENTS / 2 };

static void barrier(void) { __asm__ volatile("" ::: "memory"); }

static uint64_t value(int tag, int round, int i)
{
   return ((uint64_t)tag << 20) ^ ((uint64_t)round << 16) ^ (uint64_t)i;
}

static void produce(uint64_t* out, int n, int tag, int round)
{
   for (int i = 0; i < n; i++) out[i] = value(tag, round, i), barrier();
}

static long consume(const uint64_t* in, int n, int tag, int round)
{
   long errors = 0;
   for (int i = 0; i < n; i++) errors += in[i] != value(tag, round, i), barrier();
   return errors;
}

int main(int argc, char** argv)
{
   int rank, size, flag = 0, *tag_ub = NULL;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
   if (size < 2 || !flag) {
      if (rank == 0) fprintf(stderr, "usage: overlap_tags (at least 2 ranks)\n");
      MPI_Finalize();
      return 2;
   }
   const int tags[3] = {1 << 20, (1 << 20) + 1, *tag_ub}, short_tag = 7;
   static uint64_t messages[3][ELEMENTS], shorter[2 * SHORT], shared[ELEMENTS];
   long errors = 0;
   for (int round = 0; round < ROUNDS; round++) {
      MPI_Request requests[4];
      MPI_Status statuses[4];
      if (rank == 0) {
         for (int m = 0; m < 3; m++) produce(messages[m], ELEMENTS, tags[m], round);
         produce(shorter, SHORT, short_tag, round);
      }
      if (rank == 0) {
         MPI_Isend(messages[0], ELEMENTS, MPI_UINT64_T, 1, tags[0], MPI_COMM_WORLD, &requests[0]);
         MPI_Isend(messages[1], ELEMENTS, MPI_UINT64_T, 1, tags[1], MPI_COMM_WORLD, &requests[1]);
      } else if (rank == 1) {
         MPI_Irecv(messages[1], ELEMENTS, MPI_UINT64_T, 0, tags[1], MPI_COMM_WORLD, &requests[1]);
         MPI_Irecv(messages[0], ELEMENTS, MPI_UINT64_T, 0, tags[0], MPI_COMM_WORLD, &requests[0]);
      }
      if (rank == 0) produce(shared, ELEMENTS, 0, round);
      MPI_Bcast(shared, ELEMENTS, MPI_UINT64_T, 0, MPI_COMM_WORLD);
      errors += consume(shared, ELEMENTS, 0, round);
      if (rank == 0) {
         MPI_Isend(messages[2], ELEMENTS, MPI_UINT64_T, 1, tags[2], MPI_COMM_WORLD, &requests[2]);
         MPI_Isend(shorter, SHORT, MPI_UINT64_T, 1, short_tag, MPI_COMM_WORLD, &requests[3]);
      } else if (rank == 1) {
         MPI_Irecv(messages[2], ELEMENTS, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &requests[2]);
         MPI_Irecv(shorter, 2 * SHORT, MPI_UINT64_T, 0, short_tag, MPI_COMM_WORLD, &requests[3]);
      }
      uint64_t mine = (uint64_t)rank, all = 0;
      MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      errors += all != (uint64_t)size * (size - 1) / 2;
      if (rank <= 1) MPI_Waitall(4, requests, statuses);
      if (rank == 1) {
         errors += statuses[2].MPI_TAG != tags[2];
         for (int m = 0; m < 3; m++) errors += consume(messages[m], ELEMENTS, tags[m], round);
         errors += consume(shorter, SHORT, short_tag, round);
      }
   }
   long total = 0;
   MPI_Reduce(&errors, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
   if (rank == 0) printf("overlap_tags: tag_ub %d, %s\n", *tag_ub, total ? "FAILED" : "ok");
   MPI_Finalize();
   return total != 0;
}
