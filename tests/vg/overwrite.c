/* overwrite — the creating code overwrites what its tasks read (tests/vg/emit_source.sh): main
   sets the global coefficient `scale` before each step's task, which scales a block by it. In the
   annotated source main must not set the next step's coefficient while the last step's task may
   still read it: only a trace with --deps=raw+war sees that write after the task's read (and
   the annotated source then waits there); a plain trace's annotation says it cannot. Prints a
   checksum; the parallel build must print the same. */
#include <stdio.h>

#include "tareador.h"

#define N 200000
#define STEPS 4

static double scale;
static double block[STEPS][N];

static void scale_block(double* v)
{
   for (int i = 0; i < N; i++) v[i] = (i % 7) * scale;
}

int main(void)
{
   double checksum = 0;
   tareador_ON();
   for (int s = 0; s < STEPS; s++) {
      scale = s + 1;
      tareador_start_task("scale");
      scale_block(block[s]);
      tareador_end_task("scale");
   }
   tareador_OFF();
   for (int s = 0; s < STEPS; s++)
      for (int i = 0; i < N; i++) checksum += block[s][i] * (s + 1);
   printf("overwrite: checksum %.1f\n", checksum);
   return 0;
}
