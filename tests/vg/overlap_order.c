/* overlap_order — the exchanges of NAS LU's SSOR iteration, for tests/vg/overlap.sh: a message
   received first but used last. Ranks form a line (rank r - 1 is the left neighbour of r);
   each iteration:
   - the wavefront (LU's exchange_1): a blocking receive of the last line (25 values, 200 bytes)
     of the lower sweep from the left neighbour, work, a blocking send of the rank's own line to
     the right one; the line received is not used yet;
   - the exchange of the faces (LU's exchange_3), from the same neighbour and on the same tag:
     an immediate receive of the left face (720 values, 5760 bytes), work, a blocking send of
     the rank's face to the right, a wait; then the work on the face, and only after it on the
     line received first.
   The face arrives late (its sender works before sending it), so in the authentic run the
   latency the model charges for each wait for a receive is hidden while the rank waits for it.
   In the overlap-real stream the line's wait goes where the line is first used, after the
   face's: unless the waits keep the authentic order, it pays its latency after the face has
   arrived (the run with one chunk per message takes longer than its baseline), and the two
   waits of one channel come in the order Dimemas cannot express (its wait names the channel,
   not the request: a .dim export replays to another time).
   Usage: overlap_order [ITERATIONS]   (any number of ranks >= 2) */
#include <stdlib.h>

#include "overlap_test.h"

enum { LINE = 25, FACE = 720, TAG = 3 };

int main(int argc, char** argv)
{
   int rank, size, iterations = argc > 1 ? atoi(argv[1]) : 8;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_size(MPI_COMM_WORLD, &size);
   if (refuse_unless(size >= 2 && iterations >= 1, rank,
                     "usage: overlap_order [ITERATIONS] (at least 2 ranks)"))
      return 2;
   static uint64_t line[LINE], line_out[LINE], face[FACE], face_out[FACE], scratch[FACE];
   uint64_t sum = 0;
   for (int it = 0; it < iterations; it++) {
      /* exchange_1: the last line of the lower sweep */
      if (rank > 0) MPI_Recv(line, LINE, MPI_UINT64_T, rank - 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += update(line_out, line_out, LINE);
      if (rank < size - 1) MPI_Send(line_out, LINE, MPI_UINT64_T, rank + 1, TAG, MPI_COMM_WORLD);
      /* exchange_3: the faces, from the same neighbour on the same tag */
      MPI_Request request = MPI_REQUEST_NULL;
      if (rank > 0) MPI_Irecv(face, FACE, MPI_UINT64_T, rank - 1, TAG, MPI_COMM_WORLD, &request);
      sum += update(face_out, face_out, FACE);
      if (rank < size - 1) MPI_Send(face_out, FACE, MPI_UINT64_T, rank + 1, TAG, MPI_COMM_WORLD);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      sum += update(face, scratch, FACE);  /* the face first */
      sum += update(line, scratch, LINE);  /* then the line received before it */
   }
   if (rank == 0) printf("overlap_order: %d ranks, %d iterations, %llu\n", size, iterations,
                         (unsigned long long)(sum & 0xff));
   MPI_Finalize();
   return 0;
}
