/* oldapi.c — a code written for the earlier Tareador, as course codes of that time are: it
   includes <tareador_hooks.h>, ends its tasks with tareador_end_task() and no name, and links
   -ltareador. It compiles and runs unchanged: the solver's blocks depend on the initialisation
   and the final norm on every block. */
#include <stdio.h>

#include <tareador_hooks.h>

#define N 64
#define BLOCKS 4

double grid[N][N];

int main(void)
{
   double norm = 0;
   int b, i, j;
   tareador_ON();
   tareador_start_task("init");
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) grid[i][j] = i + j;
   tareador_end_task();
   for (b = 0; b < BLOCKS; b++) {
      tareador_start_task("relax");
      for (i = b * N / BLOCKS; i < (b + 1) * N / BLOCKS; i++)
         for (j = 0; j < N; j++) grid[i][j] *= 0.5;
      tareador_end_task();
   }
   tareador_start_task("norm");
   for (i = 0; i < N; i++)
      for (j = 0; j < N; j++) norm += grid[i][j];
   tareador_end_task("norm");
   tareador_OFF();
   printf("norm %.1f\n", norm);
   return norm == 0.5 * N * N * (N - 1) ? 0 : 1;
}
