/* Data passed between tasks through arrays a course code keeps on the stack: a variable-length
   array and an alloca'd buffer of main, sized at run time (which the debug information does not
   describe), each filled by one task and summed by the next; then recursive tasks, each with a
   scratch VLA of its own, which makes no dependency, returning their sums into locals of the
   function that created them, which waits for them. */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <tareador.h>

double results[2];

static void fill(double *v, int n, double scale)
{
   for (int k = 0; k < n; k++) v[k] = k * scale;
}

static double total(const double *v, int n)
{
   double s = 0;
   for (int k = 0; k < n; k++) s += v[k];
   return s;
}

/* Sums [0, n) into *out by halves, each half a task with a scratch array of its own. */
static void halves(int n, double *out)
{
   double scratch[n];
   fill(scratch, n, 1.0);
   if (n <= 16) {
      *out = total(scratch, n);
      return;
   }
   double left, right;
   tareador_start_task("half");
   halves(n / 2, &left);
   tareador_end_task("half");
   tareador_start_task("half");
   halves(n - n / 2, &right);
   tareador_end_task("half");
   *out = left + right;
}

/* One task fills v, the next sums it into *result: data passed through v. */
static void fill_then_sum(double *v, int n, double scale, double *result)
{
   tareador_start_task("fill");
   fill(v, n, scale);
   tareador_end_task("fill");
   tareador_start_task("sum");
   *result = total(v, n);
   tareador_end_task("sum");
}

int main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 1000;
   double vla[n];
   double *buffer = alloca(n * sizeof *buffer);
   double sum;
   tareador_ON();
   fill_then_sum(vla, n, 0.5, &results[0]);
   fill_then_sum(buffer, n, 0.25, &results[1]);
   halves(64, &sum);
   tareador_OFF();
   printf("%g %g %g\n", results[0], results[1], sum);
   return 0;
}
