/* Accumulators disabled where labs disable them: `sum` before tareador_ON, in the set-up code;
   `*acc`, in memory the program maps itself (mmap), after it; and a table of counts that grows
   (realloc moves it) while disabled. The tasks that add into them are independent. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "tareador.h"

double sum;
double values[4][256];

int main(void)
{
   double* acc = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   long* counts = calloc(4, sizeof *counts);
   if (acc == MAP_FAILED || counts == NULL) return 1;
   for (int t = 0; t < 4; t++)
      for (int i = 0; i < 256; i++) values[t][i] = t + i * 0.25;
   tareador_disable_object(&sum);
   tareador_ON();
   tareador_disable_object(acc);
   tareador_disable_object(counts);
   for (int t = 0; t < 4; t++) {
      tareador_start_task("add");
      double s = 0;
      for (int i = 0; i < 256; i++) s += values[t][i];
      sum += s;
      *acc += s;
      counts[t]++;
      tareador_end_task("add");
   }
   counts = realloc(counts, 1024 * sizeof *counts);
   if (counts == NULL) return 1;
   for (int t = 0; t < 4; t++) {
      tareador_start_task("count");
      counts[0]++;
      tareador_end_task("count");
   }
   tareador_enable_object(counts);
   tareador_enable_object(acc);
   tareador_enable_object(&sum);
   tareador_OFF();
   printf("%g %g %ld\n", sum, *acc, counts[0]);
   munmap(acc, 4096);
   free(counts);
   return 0;
}
