/* stats — tasks that each summarise a block of samples and merge the summary into one shared
   record (a sum and a maximum), disabled around the merge as course labs disable a reduction
   (tareador_disable_object): the merge is two statements, one conditional, so no atomic update
   does it (tests/vg/emit_source.sh). The annotated source must make the merge a critical
   section; the parallel build must print what the sequential one does. */
#include <stdio.h>

#include "tareador.h"

#define N 65536
#define BLOCKS 256

struct summary {
   long sum;
   int max;
};

int samples[N];

int main(void)
{
   struct summary all = {0, 0};
   int b, i;
   for (i = 0; i < N; i++) samples[i] = (i * 7919) % 100003;
   tareador_ON();
   for (b = 0; b < BLOCKS; b++) {
      long sum = 0;
      int max = 0;
      tareador_start_task("summarise");
      for (i = b * (N / BLOCKS); i < (b + 1) * (N / BLOCKS); i++) {
         sum += samples[i];
         if (samples[i] > max) max = samples[i];
      }
      tareador_disable_object(&all);
      all.sum = all.sum + sum;
      if (max > all.max) all.max = max;
      tareador_enable_object(&all);
      tareador_end_task("summarise");
   }
   tareador_OFF();
   printf("sum %ld max %d\n", all.sum, all.max);
   return 0;
}
