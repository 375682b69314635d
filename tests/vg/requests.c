/* requests — the calls that make requests besides MPI_Isend and MPI_Irecv. Persistent point to
   point, which the trace shows as the immediate sends and receives each start is: a pair made
   once and started three times (MPI_Startall, one MPI_Waitall), a wildcard receive and a
   synchronous send started with MPI_Start. A receive still pending on a communicator freed
   before it completes (MPI allows it: the trace keeps the communicator's ranks for its
   completion). A receive from anyone that nothing matches, cancelled: it never happened, and
   the trace has no record of it. A non-blocking collective, started at its call and completed at
   its wait; so is MPI_Ialltoallw, whose members' blocks have their own types and byte
   displacements (MPI_Alltoallw's bytes count each member's type). Two ranks. */
#include <mpi.h>

#define N 256

int main(int argc, char** argv)
{
   double out[N], in[N], sum;
   int rank, peer, it, i;
   MPI_Request pair[2], one;
   MPI_Status statuses[2];
   MPI_Comm dup;
   int counts[2] = {1, 1}, displacements[2] = {0, sizeof(double)};
   MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   peer = 1 - rank;

   MPI_Send_init(out, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &pair[0]);
   MPI_Recv_init(in, N, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &pair[1]);
   for (it = 0; it < 3; it++) {
      for (i = 0; i < N; i++) out[i] = rank + it + i;
      MPI_Startall(2, pair);
      MPI_Waitall(2, pair, statuses);
   }
   MPI_Request_free(&pair[0]);
   MPI_Request_free(&pair[1]);

   if (rank == 0)
      MPI_Recv_init(in, N, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &one);
   else
      MPI_Ssend_init(out, 8, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &one);
   MPI_Start(&one);
   MPI_Wait(&one, MPI_STATUS_IGNORE);
   MPI_Request_free(&one);

   MPI_Comm_dup(MPI_COMM_WORLD, &dup);
   if (rank == 0) {
      MPI_Irecv(in, 4, MPI_DOUBLE, 1, 9, dup, &one);
      MPI_Comm_free(&dup);
      MPI_Wait(&one, MPI_STATUS_IGNORE);
   } else {
      MPI_Send(out, 4, MPI_DOUBLE, 0, 9, dup);
      MPI_Comm_free(&dup);
   }

   MPI_Irecv(in, N, MPI_DOUBLE, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &one);
   MPI_Cancel(&one);
   MPI_Wait(&one, MPI_STATUS_IGNORE);

   MPI_Iallreduce(out, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &one);
   MPI_Wait(&one, MPI_STATUS_IGNORE);

   MPI_Ialltoallw(out, counts, displacements, types, in, counts, displacements, types,
                  MPI_COMM_WORLD, &one);
   MPI_Wait(&one, MPI_STATUS_IGNORE);
   /* An int to itself, a double to the other: 12 bytes each way. */
   types[rank] = MPI_INT;
   MPI_Alltoallw(out, counts, displacements, types, in, counts, displacements, types,
                 MPI_COMM_WORLD);
   MPI_Finalize();
   return 0;
}
