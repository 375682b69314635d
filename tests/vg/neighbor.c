/* neighbor — neighbourhood collectives, each a receive from every in-neighbour and a send to
   every out-neighbour of the communicator's topology, waited for in the call (or at the wait of
   the non-blocking form's request):
   - a periodic ring of two: both neighbours of a rank are the other rank, and what a rank sends
     to its right (block 1) arrives from the left (block 0);
   - a line of two: rank 0 has no left neighbour, rank 1 no right one (MPI_PROC_NULL: nothing);
     an MPI_Neighbor_alltoallw sends a double to the right and an int to the left;
   - a distributed graph where rank 0 sends to rank 1 only: an MPI_Ineighbor_alltoallv;
   - a graph (MPI_Graph_create) of the two: an MPI_Neighbor_allgatherv.
   Two ranks; each checks what it received and rank 0 prints "ok". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
   int rank, k, bad = 0;
   int dims[1] = {2}, periodic[1] = {1}, flat[1] = {0};
   int mine, got[2] = {-1, -1}, sources[1] = {0}, dests[1] = {1}, weights[1] = {1};
   int counts[2] = {3, 0}, displs[2] = {0, 0}, ints[3], in[3] = {0, 0, 0};
   int index[2] = {1, 2}, edges[2] = {1, 0};
   int block_counts[2] = {1, 1};
   double halo_out[2][100], halo_in[2][100];
   struct { int left; double right; } w_out, w_in;
   MPI_Aint w_out_displs[2], w_in_displs[2];
   MPI_Datatype w_out_types[2] = {MPI_INT, MPI_DOUBLE}, w_in_types[2] = {MPI_DOUBLE, MPI_INT};
   MPI_Comm ring, line, spread, pair;
   MPI_Request request;

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periodic, 0, &ring);
   MPI_Cart_create(MPI_COMM_WORLD, 1, dims, flat, 0, &line);
   MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, rank == 1, sources, weights, rank == 0, dests,
                                  weights, MPI_INFO_NULL, 0, &spread);
   MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &pair);

   for (k = 0; k < 100; k++) {
      halo_out[0][k] = 1000 * rank + k;       /* to the left */
      halo_out[1][k] = 1000 * rank + 500 + k; /* to the right */
   }
   MPI_Neighbor_alltoall(halo_out, 100, MPI_DOUBLE, halo_in, 100, MPI_DOUBLE, ring);
   /* from the left: what the left neighbour sent to its right */
   bad |= halo_in[0][7] != 1000 * (1 - rank) + 507 || halo_in[1][7] != 1000 * (1 - rank) + 7;

   /* an int to the left, a double to the right (of a line: the ends send and receive one) */
   w_out.left = rank;
   w_out.right = 10.5 + rank;
   w_out_displs[0] = (char*)&w_out.left - (char*)&w_out;
   w_out_displs[1] = (char*)&w_out.right - (char*)&w_out;
   w_in_displs[0] = (char*)&w_in.right - (char*)&w_in;
   w_in_displs[1] = (char*)&w_in.left - (char*)&w_in;
   MPI_Neighbor_alltoallw(&w_out, block_counts, w_out_displs, w_out_types, &w_in, block_counts,
                          w_in_displs, w_in_types, line);
   bad |= rank == 0 ? w_in.left != 1 : w_in.right != 10.5;

   mine = 10 + rank;
   MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, line);
   bad |= rank == 0 ? got[0] != -1 || got[1] != 11 : got[0] != 10 || got[1] != -1;

   for (k = 0; k < 3; k++) ints[k] = 20 + k;
   MPI_Ineighbor_alltoallv(ints, counts, displs, MPI_INT, in, counts, displs, MPI_INT, spread,
                           &request);
   MPI_Wait(&request, MPI_STATUS_IGNORE);
   bad |= rank == 1 && in[2] != 22;

   counts[0] = 1;
   displs[0] = 0;
   MPI_Neighbor_allgatherv(&mine, 1, MPI_INT, got, counts, displs, MPI_INT, pair);
   bad |= got[0] != 11 - rank;

   MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
   if (rank == 0) printf(bad ? "wrong\n" : "ok\n");
   MPI_Comm_free(&pair);
   MPI_Comm_free(&spread);
   MPI_Comm_free(&line);
   MPI_Comm_free(&ring);
   MPI_Finalize();
   return bad;
}
