/* solver — a 1D Jacobi solver until convergence, as the heat labs loop (tests/vg/emit_source.sh):
   the loop is in main, which holds the parallel region, and its residual, a local of main, is
   the sum the block tasks add into while it is disabled. No read the trace sees waits for those
   updates: the annotated source must wait before each test of the loop's condition (without,
   the parallel build tests a residual still 0 and stops after one sweep) and print what the
   sequential one does. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

int main(void)
{
   int n = 256, nb = 4;
   double* u = calloc(n + 2, sizeof(double));
   double* v = calloc(n + 2, sizeof(double));
   u[n + 1] = v[n + 1] = 1.0;
   int bs = n / nb, iter = 0;
   double res = 1.0;
   tareador_ON();
   while (res > 1e-3 && iter < 6) {
      res = 0.0;
      for (int b = 0; b < nb; b++) {
         tareador_start_task("sweep");
         for (int i = 1 + b * bs; i <= (b + 1) * bs; i++) {
            v[i] = 0.5 * (u[i - 1] + u[i + 1]);
            double d = v[i] - u[i];
            tareador_disable_object(&res);
            res += d * d;
            tareador_enable_object(&res);
         }
         tareador_end_task("sweep");
      }
      for (int b = 0; b < nb; b++) {
         tareador_start_task("copy");
         for (int i = 1 + b * bs; i <= (b + 1) * bs; i++) u[i] = v[i];
         tareador_end_task("copy");
      }
      iter++;
   }
   tareador_OFF();
   double c = 0;
   for (int i = 0; i < n + 2; i++) c += u[i] * (i + 1);
   printf("iter %d res %.12e check %.12e\n", iter, res, c);
   free(u);
   free(v);
   return 0;
}
