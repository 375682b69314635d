/* allocasite — alloca in the code of tasks and in the code that creates them
   (tests/vg/emit_source.sh). Each "outer" task calls sum4, which creates four "leaf" tasks:
   each takes a scratch buffer with alloca, in sum4's frame (which moves sum4's stack pointer
   below where the earlier leaves were created), and writes its element of sum4's local array,
   which sum4 then adds up. main takes a buffer with alloca too before it creates the outer
   tasks. The wait for the leaves belongs in sum4, before the sum (part shared, not copied), and
   the outer tasks are created in main: the parallel build must print what the sequential one
   does. */
#include <alloca.h>
#include <stdio.h>

#include "tareador.h"

long work(long k)
{
   long s = 0;
   for (long i = 0; i < 20000 * (k % 3 + 1); i++) s += (i ^ k) % 7;
   return s;
}

void sum4(long base, long* out)
{
   long part[4];
   int i;
   for (i = 0; i < 4; i++) {
      tareador_start_task("leaf");
      long* scratch = alloca(sizeof(long));
      *scratch = work(base + i);
      part[i] = *scratch;
      tareador_end_task("leaf");
   }
   long s = 0;
   for (i = 0; i < 4; i++) s += part[i];
   *out = s;
}

int main(void)
{
   long res[2], total = 0;
   int k;
   tareador_ON();
   long* step = alloca(sizeof(long));
   *step = 4;
   for (k = 0; k < 2; k++) {
      tareador_start_task("outer");
      sum4(*step * k, &res[k]);
      tareador_end_task("outer");
   }
   tareador_OFF();
   for (k = 0; k < 2; k++) total += res[k];
   printf("total %ld\n", total);
   return 0;
}
