/* ompblocks.c — tasks that each run an OpenMP loop over their own block of an array: OpenMP's
   runtime state (its team, its globals) is the runtime's, taken to be thread-safe, and makes no
   dependency: the four blocks are independent. */
#include <stdio.h>

#include "tareador.h"

#define N 4000
#define BLOCKS 4

static double values[N];

int main(void)
{
   int b, i;
   tareador_ON();
   for (b = 0; b < BLOCKS; b++) {
      tareador_start_task("block");
#pragma omp parallel for
      for (i = b * N / BLOCKS; i < (b + 1) * N / BLOCKS; i++) values[i] = i * 0.5;
      tareador_end_task("block");
   }
   tareador_OFF();
   printf("%g\n", values[N - 1]);
   return 0;
}
