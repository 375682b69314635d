/* flows — how a course's C code passes data between its tasks, for the annotated source
   (tests/vg/emit_source.sh). C89 style: counters declared at the top of main, set again by
   main between the task loops and after tracing (they must stay copies in the tasks, or the
   tasks race with main on them); a loop whose block declares its own counter, before a task
   that declares another (that task cannot copy the first); a norm one task sums into a local
   of main that a sibling task reads (shared, and ordered by the depend clauses); and a solver
   loop in a function main calls, whose condition tests the task's result (a taskwait there,
   in that function). The parallel build must print what the sequential one does. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define N 4096
#define BLOCKS 4

static double relax(double* u, int n)
{
   double change = 0;
   int k;
   for (k = 1; k < n - 1; k++) {
      double old = u[k];
      u[k] = 0.5 * (u[k - 1] + u[k + 1]);
      change += (u[k] - old) * (u[k] - old);
   }
   return change;
}

static int solve(double* u, int n)
{
   int steps = 0;
   double residual = 1.0;
   while (residual > 1e-4 && steps < 1000) {
      tareador_start_task("relax");
      residual = relax(u, n);
      tareador_end_task("relax");
      steps++;
   }
   return steps;
}

int main(void)
{
   int b, i, steps;
   double norm = 0, sum, *v, *u;
   v = malloc(N * sizeof *v);
   u = calloc(32, sizeof *u);
   u[0] = 1.0;
   tareador_ON();
   for (b = 0; b < BLOCKS; b++) {
      int k;
      tareador_start_task("fill");
      for (k = b * N / BLOCKS; k < (b + 1) * N / BLOCKS; k++) v[k] = k % 7 + 1;
      tareador_end_task("fill");
   }
   for (i = 0; i < N; i += 2) v[i] += 1;
   tareador_start_task("norm");
   for (int k = 0; k < N; k++) norm += v[k] * v[k];
   tareador_end_task("norm");
   for (b = 0; b < BLOCKS; b++) {
      tareador_start_task("scale");
      for (i = b * N / BLOCKS; i < (b + 1) * N / BLOCKS; i++) v[i] /= norm;
      tareador_end_task("scale");
   }
   steps = solve(u, 32);
   tareador_OFF();
   sum = 0;
   for (i = 0; i < N; i++) sum += v[i];
   printf("norm %.6g, sum %.6g, %d steps\n", norm, sum, steps);
   free(u);
   free(v);
   return 0;
}
