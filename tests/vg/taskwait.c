/* taskwait — the creating code reads what its tasks produced (tests/vg/emit_source.sh): two tasks
   per step fill a and b, and main sums them right after, in the same loop. The annotated source
   must wait for the two tasks there (a taskwait before the line that sums), or the sums read
   vectors being written. Prints the total; the parallel build must print the same. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

static void fill(double* v, int n, double x)
{
   for (int i = 0; i < n; i++) v[i] = x * i;
}

static double sum(const double* v, int n)
{
   double s = 0;
   for (int i = 0; i < n; i++) s += v[i];
   return s;
}

int main(void)
{
   int n = 100000, steps = 4;
   double* a = malloc(sizeof(double) * n);
   double* b = malloc(sizeof(double) * n);
   double total = 0;
   tareador_ON();
   for (int s = 0; s < steps; s++) {
      tareador_start_task("fill_a");
      fill(a, n, s + 1);
      tareador_end_task("fill_a");
      tareador_start_task("fill_b");
      fill(b, n, 2 * s + 3);
      tareador_end_task("fill_b");
      total += sum(a, n) - sum(b, n);
   }
   tareador_OFF();
   printf("taskwait: total %.1f\n", total);
   free(a);
   free(b);
   return 0;
}
