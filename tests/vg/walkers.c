/* walkers — tasks handed a pointer the creating loop moves on (tests/vg/emit_source.sh): `p`
   walks an array block by block, `row` is declared in each iteration. The task reads the
   pointer variable itself, which firstprivate copies: nothing in the creating frame needs the
   task to end first, so no taskwait goes inside the loops (the blocks are summed in parallel). */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define B 32
#define BLOCKS 8

double total, squares;

double block_sum(const double* x, int n)
{
   double s = 0;
   for (int i = 0; i < n; i++) s += x[i];
   return s;
}

int main(void)
{
   double* v = malloc(B * BLOCKS * sizeof(double));
   for (int i = 0; i < B * BLOCKS; i++) v[i] = i % 7;
   tareador_ON();
   double* p = v;
   for (int b = 0; b < BLOCKS; b++) {
      tareador_start_task("walk");
      double s = block_sum(p, B);
      tareador_disable_object(&total);
      total += s;
      tareador_enable_object(&total);
      tareador_end_task("walk");
      p += B;
   }
   for (int b = 0; b < BLOCKS; b++) {
      double* row = &v[b * B];
      tareador_start_task("row");
      double s = block_sum(row, B);
      tareador_disable_object(&squares);
      squares += s * s;
      tareador_enable_object(&squares);
      tareador_end_task("row");
   }
   tareador_OFF();
   printf("total %g squares %g\n", total, squares);
   free(v);
   return 0;
}
