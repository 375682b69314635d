/* nops — bursts of known length: 1000 no-ops between the first two barriers, 3000 between the
   next two. The two bursts must differ by exactly 2000 instructions (the rest of each, the
   wrappers' way in and out, is the same). */
#include <mpi.h>

int main(int argc, char** argv)
{
   MPI_Init(&argc, &argv);
   MPI_Barrier(MPI_COMM_WORLD);
   __asm__ volatile(".rept 1000\n\tnop\n\t.endr");
   MPI_Barrier(MPI_COMM_WORLD);
   __asm__ volatile(".rept 3000\n\tnop\n\t.endr");
   MPI_Barrier(MPI_COMM_WORLD);
   MPI_Finalize();
   return 0;
}
