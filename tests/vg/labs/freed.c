/* Blocks that go while disabled. A histogram's bins are disabled for the tasks that count into
   them (a reduction) and freed without being enabled again; the next block, which malloc puts
   at the same address, is filled by one task and read by another: a true dependency, not a
   disabled object. Disabling the freed bins' pointer afterwards is a mistake the tool ignores,
   saying so. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define BINS 64

int main(void)
{
   tareador_ON();
   long* bins = calloc(BINS, sizeof *bins);
   tareador_disable_object(bins);
   for (int t = 0; t < 4; t++) {
      tareador_start_task("count");
      for (int i = 0; i < 1000; i++) bins[(i * 7 + t) % BINS]++;
      tareador_end_task("count");
   }
   long first = bins[0];
   volatile uintptr_t gone = (uintptr_t)bins; /* (the address outlives the block) */
   free(bins);
   tareador_disable_object((void*)gone);
   double* values = malloc(BINS * sizeof *values);
   tareador_start_task("fill");
   for (int i = 0; i < BINS; i++) values[i] = i * 0.5;
   tareador_end_task("fill");
   tareador_start_task("sum");
   double s = 0;
   for (int i = 0; i < BINS; i++) s += values[i];
   tareador_end_task("sum");
   tareador_OFF();
   printf("%ld %g (%s address)\n", first, s, (uintptr_t)values == gone ? "same" : "another");
   free(values);
   return 0;
}
