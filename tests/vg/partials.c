/* partials — local arrays the tasks write (tests/vg/emit_source.sh): a partial sum per block in
   an array of the function that creates the tasks, added up after them, as the pi labs do; and
   in main a table one task fills and the next tasks read. The annotated source must share both
   arrays (orphaned tasks would copy them and lose what they wrote: pi would print 0), the
   partial sums without depend clauses (each task has its element: ordering the tasks would
   serialise them), the table in the depend clauses of its writer and of its readers; the
   parallel build must print what the sequential one does. */
#include <stdio.h>

#include "tareador.h"

#define STEPS 100000
#define BLOCKS 8
#define N 64

double compute_pi(long steps)
{
   double partial[BLOCKS];
   double step = 1.0 / (double)steps, sum = 0.0;
   long size = steps / BLOCKS;
   int b;
   for (b = 0; b < BLOCKS; b++) {
      tareador_start_task("block");
      partial[b] = 0.0;
      for (long i = b * size; i < (b + 1) * size; i++) {
         double x = (i + 0.5) * step;
         partial[b] += 4.0 / (1.0 + x * x);
      }
      tareador_end_task("block");
   }
   for (b = 0; b < BLOCKS; b++) sum += partial[b];
   return step * sum;
}

double scaled[4][N];

int main(void)
{
   double table[N];
   double pi;
   int i, k;
   tareador_ON();
   pi = compute_pi(STEPS);
   tareador_start_task("table");
   for (i = 0; i < N; i++) table[i] = i * pi;
   tareador_end_task("table");
   for (k = 0; k < 4; k++) {
      tareador_start_task("scale");
      for (i = 0; i < N; i++) scaled[k][i] = (k + 1) * table[i];
      tareador_end_task("scale");
   }
   tareador_OFF();
   printf("pi = %.12f, %.6f %.6f\n", pi, scaled[3][N - 1], table[1]);
   return 0;
}
