/* mprobe — matched probes: the receive of a message MPI_Mprobe or MPI_Improbe found is a receive
   from the source and with the tag the probe found (MPI_Mrecv: blocking; MPI_Imrecv: immediate,
   completed by its wait). A worker (rank 1) takes messages of sizes it does not know in advance
   from anyone with any tag, as such programs do: probe, allocate what MPI_Get_count says,
   receive. A probe of MPI_PROC_NULL finds no message and its receive receives nothing (no
   record). Two ranks; rank 1 prints what it received. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
   int rank, k, count, flag = 0, total = 0;
   double out[300];
   MPI_Message message;
   MPI_Status status;
   MPI_Request request;

   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &rank);
   if (rank == 0) {
      for (k = 0; k < 300; k++) out[k] = k;
      MPI_Send(out, 100, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
      MPI_Send(out, 300, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD);
   } else {
      double* in;
      MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &message, &status);
      MPI_Get_count(&status, MPI_DOUBLE, &count);
      in = malloc(count * sizeof(double));
      MPI_Mrecv(in, count, MPI_DOUBLE, &message, MPI_STATUS_IGNORE);
      total += count;
      free(in);
      MPI_Probe(0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* (so that one MPI_Improbe finds it) */
      while (!flag) MPI_Improbe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &message, &status);
      MPI_Get_count(&status, MPI_DOUBLE, &count);
      in = malloc(count * sizeof(double));
      MPI_Imrecv(in, count, MPI_DOUBLE, &message, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      total += count;
      free(in);
      MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &message, &status);
      MPI_Mrecv(NULL, 0, MPI_DOUBLE, &message, MPI_STATUS_IGNORE);
      printf("mprobe: received %d doubles\n", total);
   }
   MPI_Finalize();
   return 0;
}
