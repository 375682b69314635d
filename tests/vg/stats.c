/* stats — tasks that each summarise a block of samples and merge the summary into one shared
   record (a sum and a maximum), disabled around the merge as course labs disable a reduction
   (tareador_disable_object): the merge is three statements, one conditional, so no atomic
   update does it, and it declares the running total the task keeps after it
   (tests/vg/emit_source.sh). The annotated source must make the merge a critical section, with
   that declaration before it; the parallel build must print what the sequential one does (the
   largest running total is the last, whatever the order). */
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
   long running[BLOCKS];
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
      long total = all.sum + sum;
      all.sum = total;
      if (max > all.max) all.max = max;
      tareador_enable_object(&all);
      running[b] = total;
      tareador_end_task("summarise");
   }
   tareador_OFF();
   long last = 0;
   for (b = 0; b < BLOCKS; b++)
      if (running[b] > last) last = running[b];
   printf("sum %ld max %d, last running total %ld\n", all.sum, all.max, last);
   return 0;
}
