/* histogram — tasks that count values into a histogram, disabled while they do as course labs
   disable such reductions (tareador_disable_object), and a later task that reads it
   (tests/vg/emit_source.sh). The updates are atomic in the source already; what the annotated
   source must add is a taskwait before the reading task is created (no depend clause orders
   a read after updates of a disabled object); the parallel build must print what the sequential
   one does. */
#include <stdio.h>

#include "tareador.h"

#define N 4096
#define BINS 16
#define BLOCKS 8

int data[N];
int histogram[BINS];
int cumulative[BINS];

int main(void)
{
   int i, b, k;
   for (i = 0; i < N; i++) data[i] = (i * 7919) % 1000;
   tareador_ON();
   for (b = 0; b < BLOCKS; b++) {
      tareador_start_task("count");
      tareador_disable_object(histogram);
      for (i = b * (N / BLOCKS); i < (b + 1) * (N / BLOCKS); i++)
#pragma omp atomic
         histogram[data[i] % BINS]++;
      tareador_enable_object(histogram);
      tareador_end_task("count");
   }
   tareador_start_task("cumulate");
   cumulative[0] = histogram[0];
   for (k = 1; k < BINS; k++) cumulative[k] = cumulative[k - 1] + histogram[k];
   tareador_end_task("cumulate");
   tareador_OFF();
   printf("%d %d %d\n", cumulative[0], cumulative[BINS / 2], cumulative[BINS - 1]);
   return 0;
}
