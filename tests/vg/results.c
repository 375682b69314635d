/* results — tasks whose results are locals of the code that creates them (tests/vg/emit_source.sh):
   a solver step per task whose residual decides whether to go on, as the heat labs loop; a
   task that sums into a local printed after tracing ends; and a function whose task sums into
   its local, which it returns into a variable declared in the traced code and printed after
   it. The annotated source must share the three (copied into the tasks, their writes would be
   lost: the loop would run to its limit and the sums print 0), and declare the last variable
   before the parallel region (inside, it would be gone after it); the parallel build must
   print what the sequential one does. */
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

static double mean(const double* u, int n)
{
   double s = 0;
   tareador_start_task("mean");
   for (int i = 0; i < n; i++) s += u[i];
   tareador_end_task("mean");
   return s / n;
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
   double average = mean(u, n);
   tareador_OFF();
   printf("%d steps, residual %.6g, total %.6g, mean %.6g\n", steps, residual, total, average);
   free(u);
   return 0;
}
