/* sharedreq — requests that complete as they start: a small send to a shared-memory peer and a
   barrier of a one-member communicator. Open MPI gives all such requests one handle (its
   empty request), so the trace must tell them apart by where the program keeps them. Each of 2
   ranks: MPI_Isend to the other (inline), MPI_Ibarrier on its own communicator, waits for the
   barrier, then MPI_Ibarrier on MPI_COMM_WORLD and its wait, a receive from the other rank, and
   the wait for the send (with `free`: MPI_Request_free of the send, before the barriers).
   Usage: mpirun -np 2 sharedreq [free] (tests/vg/run.sh). Prints "sharedreq: ok". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
   int rank;
   char out[32] = "message", in[32];
   MPI_Comm self;
   MPI_Request send, alone, all;
   int freed = argc > 1 && strcmp(argv[1], "free") == 0;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &self);
   MPI_Isend(out, 26, MPI_CHAR, 1 - rank, 0, MPI_COMM_WORLD, &send);
   if (freed) MPI_Request_free(&send);
   MPI_Ibarrier(self, &alone);
   MPI_Wait(&alone, MPI_STATUS_IGNORE);
   MPI_Ibarrier(MPI_COMM_WORLD, &all);
   MPI_Wait(&all, MPI_STATUS_IGNORE);
   MPI_Recv(in, 32, MPI_CHAR, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
   if (!freed) MPI_Wait(&send, MPI_STATUS_IGNORE);
   MPI_Comm_free(&self);
   if (rank == 0) printf("sharedreq: %s\n", strcmp(in, "message") == 0 ? "ok" : "wrong");
   MPI_Finalize();
   return 0;
}
