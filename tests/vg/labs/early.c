/* Accumulators disabled where labs disable them: `sum` before tareador_ON, in the set-up code,
   and `*acc`, in memory the program maps itself (mmap), after it. The four tasks that add into
   both are independent. */
#include <stdio.h>
#include <sys/mman.h>

#include "tareador.h"

double sum;
double values[4][256];

int main(void)
{
   double* acc = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (acc == MAP_FAILED) return 1;
   for (int t = 0; t < 4; t++)
      for (int i = 0; i < 256; i++) values[t][i] = t + i * 0.25;
   tareador_disable_object(&sum);
   tareador_ON();
   tareador_disable_object(acc);
   for (int t = 0; t < 4; t++) {
      tareador_start_task("add");
      double s = 0;
      for (int i = 0; i < 256; i++) s += values[t][i];
      sum += s;
      *acc += s;
      tareador_end_task("add");
   }
   tareador_enable_object(acc);
   tareador_enable_object(&sum);
   tareador_OFF();
   printf("%g %g\n", sum, *acc);
   munmap(acc, 4096);
   return 0;
}
