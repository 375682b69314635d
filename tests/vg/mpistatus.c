/* mpistatus — the statuses MPI fills for tasks, which the code after them reads: task "get"
   receives with MPI_ANY_TAG into `got` (a worker's stop test reads the tag), task "finish"
   waits for an immediate receive into `done`. The code after each reads the status, so it
   depends on the task that had it filled (tests/vg/tasks.sh). Usage: mpirun -np 1 mpistatus;
   prints "mpistatus: ok" when the tags are the ones sent. */
#include <mpi.h>
#include <stdio.h>

#include "tareador.h"

static double message[4], sent[4] = {1, 2, 3, 4};

int main(int argc, char** argv)
{
   int me, first, second;
   MPI_Request out[2], in;
   MPI_Status got, done;
   MPI_Init(&argc, &argv);
   MPI_Comm_rank(MPI_COMM_WORLD, &me);
   MPI_Isend(sent, 4, MPI_DOUBLE, me, 7, MPI_COMM_WORLD, &out[0]);
   MPI_Isend(sent, 4, MPI_DOUBLE, me, 9, MPI_COMM_WORLD, &out[1]);
   got.MPI_TAG = done.MPI_TAG = -1;
   tareador_start_task("get");
   MPI_Recv(message, 4, MPI_DOUBLE, me, MPI_ANY_TAG, MPI_COMM_WORLD, &got);
   tareador_end_task("get");
   first = got.MPI_TAG;
   MPI_Irecv(message, 4, MPI_DOUBLE, me, MPI_ANY_TAG, MPI_COMM_WORLD, &in);
   tareador_start_task("finish");
   MPI_Wait(&in, &done);
   tareador_end_task("finish");
   second = done.MPI_TAG;
   tareador_OFF();
   MPI_Wait(&out[0], MPI_STATUS_IGNORE);
   MPI_Wait(&out[1], MPI_STATUS_IGNORE);
   if (first == 7 && second == 9) printf("mpistatus: ok\n");
   MPI_Finalize();
   return 0;
}
