/* pointers — results a task writes through a pointer into its caller's locals, for the
   annotated source (tests/vg/emit_source.sh): a function whose task fills a local of the
   function that called it, which adds the two halves when the creating function has returned
   (the tool must see that read, and a taskwait go before it); a solver loop whose condition, in
   a function above the one that creates the task, tests an error the task writes through a
   pointer (a wait at the end of each iteration there); a mean divided after tracing ends
   (`mean = mean / n` reads it: shared); and a counter declared inside one task's code and
   used by the next (declared before the task, or the next could not name it). The parallel
   build must print what the sequential one does. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define N 10000

static void part(const double* x, int lo, int hi, double* out)
{
   tareador_start_task("part");
   double s = 0;
   for (int i = lo; i < hi; i++) s += x[i];
   *out = s;
   tareador_end_task("part");
}

static double total(const double* x, int n)
{
   double a = 0, b = 0;
   part(x, 0, n / 2, &a);
   part(x, n / 2, n, &b);
   return a + b;
}

static void relax(double* u, int n, double* error)
{
   double e = 0;
   for (int k = 1; k < n - 1; k++) {
      double old = u[k];
      u[k] = 0.5 * (u[k - 1] + u[k + 1]);
      e += (u[k] - old) * (u[k] - old);
   }
   *error = e;
}

static void relax_task(double* u, int n, double* error)
{
   tareador_start_task("relax");
   relax(u, n, error);
   tareador_end_task("relax");
}

static int solve(double* u, int n)
{
   double error = 1;
   int steps = 0;
   while (error > 1e-6 && steps < 5000) {
      relax_task(u, n, &error);
      steps++;
   }
   return steps;
}

int main(void)
{
   double *x = malloc(N * sizeof *x), *u = calloc(40, sizeof *u), sum, mean = 0;
   int steps;
   u[0] = 1.0;
   tareador_ON();
   tareador_start_task("fill");
   int i;
   for (i = 0; i < N; i++) x[i] = i % 10;
   tareador_end_task("fill");
   tareador_start_task("mean");
   for (i = 0; i < N; i++) mean += x[i];
   tareador_end_task("mean");
   sum = total(x, N);
   steps = solve(u, 40);
   tareador_OFF();
   mean = mean / N;
   printf("sum %g, mean %g, %d steps, u[2] %.6f\n", sum, mean, steps, u[2]);
   free(u);
   free(x);
   return 0;
}
