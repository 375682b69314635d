/* pcoll — persistent collectives (MPI 4.0): each start (MPI_Start, MPI_Startall) of a request
   made by MPI_Allreduce_init, MPI_Neighbor_alltoall_init or MPI_Bcast_init is the non-blocking
   collective, completed by the wait or test of the request; MPI_Request_free ends it. Three
   steps of an allreduce and a halo exchange on a periodic ring of two, started together, then
   a broadcast. Two ranks; rank 0 prints "ok". MPI 4.0 only (MPICH here). */
#include <mpi.h>
#include <stdio.h>

#if MPI_VERSION >= 4
int main(int argc, char** argv)
{
   int rank, step, bad = 0, token = 0;
   int dims[1] = {2}, periodic[1] = {1};
   double x, sum, halo_out[2], halo_in[2];
   MPI_Comm ring;
   MPI_Request steps[2], bcast;
   MPI_Status statuses[2];

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periodic, 0, &ring);
   MPI_Allreduce_init(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &steps[0]);
   MPI_Neighbor_alltoall_init(halo_out, 1, MPI_DOUBLE, halo_in, 1, MPI_DOUBLE, ring,
                              MPI_INFO_NULL, &steps[1]);
   MPI_Bcast_init(&token, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &bcast);
   for (step = 0; step < 3; step++) {
      x = rank + step;
      halo_out[0] = halo_out[1] = 10 * rank + step;
      MPI_Startall(2, steps);
      MPI_Waitall(2, steps, statuses);
      bad |= sum != 1 + 2 * step || halo_in[0] != 10 * (1 - rank) + step;
   }
   if (rank == 0) token = 42;
   MPI_Start(&bcast);
   MPI_Wait(&bcast, MPI_STATUS_IGNORE);
   bad |= token != 42;
   MPI_Request_free(&steps[0]);
   MPI_Request_free(&steps[1]);
   MPI_Request_free(&bcast);
   MPI_Comm_free(&ring);
   MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
   if (rank == 0) printf(bad ? "wrong\n" : "ok\n");
   MPI_Finalize();
   return bad;
}
#else
int main(void)
{
   printf("persistent collectives need MPI 4.0\n");
   return 77;
}
#endif
