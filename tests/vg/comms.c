/* comms — communicators made by calls besides MPI_Comm_split and MPI_Comm_dup: a distributed
   graph (MPI_Dist_graph_create_adjacent), whose members the trace knows, so that a sendrecv on
   it is a message; and one made by MPI_Comm_idup, which the trace does not model, so that an
   allreduce on it is an opaque call and a warning. Two ranks. */
#include <mpi.h>

int main(int argc, char** argv)
{
   double out[4] = {1, 2, 3, 4}, in[4], sum;
   int rank, peer, weight = 1;
   MPI_Comm graph, dup;
   MPI_Request request;

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   peer = 1 - rank;

   MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &peer, &weight, 1, &peer, &weight,
                                  MPI_INFO_NULL, 0, &graph);
   MPI_Sendrecv(out, 4, MPI_DOUBLE, peer, 3, in, 4, MPI_DOUBLE, peer, 3, graph, MPI_STATUS_IGNORE);
   MPI_Comm_free(&graph);

   MPI_Comm_idup(MPI_COMM_WORLD, &dup, &request);
   MPI_Wait(&request, MPI_STATUS_IGNORE);
   MPI_Allreduce(out, &sum, 1, MPI_DOUBLE, MPI_SUM, dup);
   MPI_Comm_free(&dup);
   MPI_Finalize();
   return 0;
}
