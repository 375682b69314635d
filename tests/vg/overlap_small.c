/* overlap_small — many small messages, as NAS LU exchanges them, for the test that overlapping
   never slows a run down (tests/vg/overlap.sh): with one chunk per message, the overlap-real
   trace only moves sends earlier and waits later, so on any machine it takes no longer than
   its baseline. Every message is a few hundred bytes, where latency dominates.

   Each iteration has four phases over a line of ELEMENTS 8-byte values:
   - a wavefront (LU's pipelined sweep): for each of PLANES planes, a blocking receive of the
     line from the left neighbour, a little work on it, a blocking send to the right one;
   - a halo exchange: immediate receives from both neighbours, immediate sends to both, one
     MPI_Waitall, then work on what arrived;
   - a ring shift with MPI_Sendrecv;
   - a dot product with MPI_Allreduce (a collective of 8 bytes).
   Usage: overlap_small [ITERATIONS]   (any number of ranks >= 2) */
#include <stdlib.h>

#include "overlap_test.h"

enum { ELEMENTS = 40, PLANES = 8 };

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 4;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (refuse_unless(size >= 2 && iterations >= 1, rank,
                     "usage: overlap_small [ITERATIONS] (at least 2 ranks)"))
      return 2;
   const int left = (rank + size - 1) % size, right = (rank + 1) % size;
   uint64_t line[ELEMENTS] = {0}, out[ELEMENTS] = {0}, halo[2][ELEMENTS] = {{0}}, edge[ELEMENTS] = {0};
   uint64_t sum = 0;
   for (int it = 0; it < iterations; it++) {
      for (int plane = 0; plane < PLANES; plane++) {
         if (rank > 0)
            MPI_Recv(line, ELEMENTS, MPI_UINT64_T, rank - 1, plane, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         sum += update(line, out, ELEMENTS);
         if (rank < size - 1) MPI_Send(out, ELEMENTS, MPI_UINT64_T, rank + 1, plane, MPI_COMM_WORLD);
      }
      MPI_Request requests[4];
      MPI_Status statuses[4];
      MPI_Irecv(halo[0], ELEMENTS, MPI_UINT64_T, left, 100, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(halo[1], ELEMENTS, MPI_UINT64_T, right, 101, MPI_COMM_WORLD, &requests[1]);
      MPI_Isend(out, ELEMENTS, MPI_UINT64_T, right, 100, MPI_COMM_WORLD, &requests[2]);
      MPI_Isend(line, ELEMENTS, MPI_UINT64_T, left, 101, MPI_COMM_WORLD, &requests[3]);
      MPI_Waitall(4, requests, statuses);
      sum += update(halo[0], edge, ELEMENTS) + update(halo[1], line, ELEMENTS);
      MPI_Sendrecv(edge, ELEMENTS, MPI_UINT64_T, right, 200, out, ELEMENTS, MPI_UINT64_T, left, 200,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += update(out, edge, ELEMENTS);
      uint64_t dot = sum & 0xffff, total = 0;
      MPI_Allreduce(&dot, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      sum += total;
   }
   if (rank == 0) printf("overlap_small: %d ranks, %d iterations, %llu\n", size, iterations,
                         (unsigned long long)(sum & 0xff));
   MPI_Finalize();
   return 0;
}
