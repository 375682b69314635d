/* results — tasks whose results are locals of the code that creates them (tests/vg/emit_source.sh):
   a solver step per task whose residual decides whether to go on, as the heat labs loop, and
   a task that sums into a local printed after tracing ends. The annotated source must share
   both (copied into the tasks, their writes would be lost: the loop would run to its limit and
   the sum print 0); the parallel build must print what the sequential one does. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

static double relax(double* u, int n)
{
   double change = 0;
   for (int i = 1; i < n - 1; i++) {
      double old = u[i];
      u[i] = 0.5 * (u[i - 1] + u[i + 1]);
      change += (u[i] - old) * (u[i] - old);
   }
   return change;
}

int main(void)
{
   int n = 32, steps = 0;
   double* u = calloc(n, sizeof *u);
   u[0] = 1.0;
   double residual = 1.0, total = 0;
   tareador_ON();
   while (residual > 1e-4 && steps < 1000) {
      tareador_start_task("relax");
      residual = relax(u, n);
      tareador_end_task("relax");
      steps++;
   }
   tareador_start_task("total");
   for (int i = 0; i < n; i++) total += u[i];
   tareador_end_task("total");
   tareador_OFF();
   printf("%d steps, residual %.6g, total %.6g\n", steps, residual, total);
   free(u);
   return 0;
}
