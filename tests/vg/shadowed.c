/* shadowed — globals hidden at the task by parameters of the same name (tests/vg/emit_source.sh):
   heap blocks held by the globals x and y, and the global arrays a and b, are passed swapped to
   functions whose parameters are called x, y and a, b. Where their tasks are created the names
   are the parameters, the other objects: the annotated source must not name the globals there
   (a stand-in does), or the task that checks x would not be ordered after the copy that writes
   it; the parallel build must print what the sequential one does. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define N 4096

double *x, *y;
double a[N], b[N];

/* main calls copy(y, x): it reads the block of global y and writes global x's */
static void copy(double* x, double* y, int n)
{
   tareador_start_task("copy");
   for (int i = 0; i < n; i++) {
      double v = x[i];
      for (int k = 0; k < 20; k++) v = v * 1.0000001 + 1e-9;
      y[i] = v;
   }
   tareador_end_task("copy");
}

/* main calls twice(b, a): it reads global b and writes global a */
static void twice(double* a, double* b, int n)
{
   tareador_start_task("twice");
   for (int i = 0; i < n; i++) b[i] = 2 * a[i];
   tareador_end_task("twice");
}

int main(void)
{
   double s = 0.0, t = 0.0;
   x = calloc(N, sizeof(double));
   y = calloc(N, sizeof(double));
   tareador_ON();
   tareador_start_task("init");
   for (int i = 0; i < N; i++) y[i] = b[i] = i % 10;
   tareador_end_task("init");
   copy(y, x, N);
   twice(b, a, N);
   tareador_start_task("check");
   for (int i = 0; i < N; i++) s += x[i];
   for (int i = 0; i < N; i++) t += a[i];
   tareador_end_task("check");
   tareador_OFF();
   printf("sum %.3f %.3f\n", s, t);
   free(x);
   free(y);
   return 0;
}
