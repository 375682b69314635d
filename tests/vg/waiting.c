/* waiting — a traced run that lasts until told: a task, then a wait for a line on stdin, then
   another task. tests/vg/faults.sh starts a second run into the same trace directory while it
   waits: the second must leave the first's set alone. */
#include <stdio.h>

#include "tareador.h"

int main(void)
{
   static double v[1024];
   char line[16];
   tareador_ON();
   tareador_start_task("before");
   for (int i = 0; i < 1024; i++) v[i] = i;
   tareador_end_task("before");
   if (!fgets(line, sizeof line, stdin)) line[0] = '\0';
   tareador_start_task("after");
   double s = 0;
   for (int i = 0; i < 1024; i++) s += v[i];
   tareador_end_task("after");
   tareador_OFF();
   printf("waiting: %g\n", s);
   return 0;
}
