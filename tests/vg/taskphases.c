/* taskphases — tracing switched on and off around each of 3 steps of 2 tasks (tests/vg/tasks.sh):
   the trace covers the first tareador_ON to the first tareador_OFF, and the tool says once that
   the rest is not traced (it used to stop on an assertion). */
#include <stdio.h>

#include "tareador.h"

double a[2048];

int main(void)
{
   for (int step = 0; step < 3; step++) {
      tareador_ON();
      for (int b = 0; b < 2; b++) {
         tareador_start_task("update");
         for (int i = b * 1024; i < (b + 1) * 1024; i++) a[i] = a[i] * 0.5 + step;
         tareador_end_task("update");
      }
      tareador_OFF();
   }
   printf("%g\n", a[2047]);
   return 0;
}
