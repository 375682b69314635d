/* nops — bursts of known length: 1000 no-ops between the first two barriers, 3000 between the
   next two. The two bursts must differ by exactly 2000 instructions, and hold little more than
   the no-ops: the rest of each is the program's call of MPI_Barrier (the tool's wrappers around
   it are not the program's). */
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
