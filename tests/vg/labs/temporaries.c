/* Scratch buffers of a task. Each "smooth" task allocates a buffer, works in it and frees it
   before it ends: a temporary of its own, in no clause. Each "build" task allocates a row
   that a "total" task reads and frees later: an output, in the clauses, with a dependency.
   Each "stage" task allocates a buffer its two children fill, sum and free: a temporary of
   the stage, in the clauses of the children only. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define N 512
#define BLOCKS 4

static double a[BLOCKS][N];

int main(void)
{
   double smoothed[BLOCKS], staged[BLOCKS], total = 0;
   double* rows[BLOCKS];
   for (int b = 0; b < BLOCKS; b++)
      for (int i = 0; i < N; i++) a[b][i] = b + i * 0.25;
   tareador_ON();
   for (int b = 0; b < BLOCKS; b++) {
      tareador_start_task("smooth");
      double* scratch = malloc(N * sizeof *scratch);
      for (int i = 0; i < N; i++) scratch[i] = 0.5 * a[b][i];
      double s = 0;
      for (int i = 0; i < N; i++) s += scratch[i];
      smoothed[b] = s;
      free(scratch);
      tareador_end_task("smooth");
   }
   for (int b = 0; b < BLOCKS; b++) {
      tareador_start_task("build");
      rows[b] = malloc(N * sizeof *rows[b]);
      for (int i = 0; i < N; i++) rows[b][i] = a[b][i] * 2;
      tareador_end_task("build");
   }
   tareador_start_task("total");
   for (int b = 0; b < BLOCKS; b++) {
      for (int i = 0; i < N; i++) total += rows[b][i];
      free(rows[b]);
   }
   tareador_end_task("total");
   for (int b = 0; b < BLOCKS; b++) {
      tareador_start_task("stage");
      double* buffer = malloc(N * sizeof *buffer);
      tareador_start_task("stage_fill");
      for (int i = 0; i < N; i++) buffer[i] = a[b][i] + 1;
      tareador_end_task("stage_fill");
      tareador_start_task("stage_sum");
      staged[b] = 0;
      for (int i = 0; i < N; i++) staged[b] += buffer[i];
      free(buffer);
      tareador_end_task("stage_sum");
      tareador_end_task("stage");
   }
   tareador_OFF();
   printf("%g %g %g\n", smoothed[0] + smoothed[BLOCKS - 1], total, staged[0] + staged[BLOCKS - 1]);
   return 0;
}
