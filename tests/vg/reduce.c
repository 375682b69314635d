/* reduce — tasks that add into a disabled array of totals (a reduction, as course labs disable
   an accumulator) and tasks that read it (tests/vg/tasks.sh). A reader depends on every task
   that added to the bytes it reads since they were last written otherwise, and on no other:
     add #2 #3 #4 add into totals[0], bump #5 into totals[1];
     use #6 reads totals[0]: after #2 #3 #4 (not #5);
     reset #7 sets totals[0] again, add #8 adds to it, use #9 reads it: after #7 and #8 only;
     outer #10 creates add #11 #12 into totals[1], then reads it: it waits for them there, and
     depends on bump #5.
   Prints the totals. */
#include <stdio.h>

#include "tareador.h"

double totals[2], seen[3];

static double __attribute__((noinline)) work(int k)
{
   double s = 0;
   for (int i = 0; i < 1000; i++) s += (i * k) % 7;
   return s;
}

static void __attribute__((noinline)) add(int slot, int k)
{
   double v = work(k);
   tareador_disable_object(totals);
   totals[slot] += v;
   tareador_enable_object(totals);
}

int main(void)
{
   tareador_ON();
   for (int k = 1; k <= 3; k++) {
      tareador_start_task("add");
      add(0, k);
      tareador_end_task("add");
   }
   tareador_start_task("bump");
   add(1, 4);
   tareador_end_task("bump");
   tareador_start_task("use");
   seen[0] = totals[0];
   tareador_end_task("use");
   tareador_start_task("reset");
   totals[0] = 1;
   tareador_end_task("reset");
   tareador_start_task("add");
   add(0, 5);
   tareador_end_task("add");
   tareador_start_task("use");
   seen[1] = totals[0];
   tareador_end_task("use");
   tareador_start_task("outer");
   for (int k = 6; k <= 7; k++) {
      tareador_start_task("add");
      add(1, k);
      tareador_end_task("add");
   }
   seen[2] = totals[1];
   tareador_end_task("outer");
   tareador_OFF();
   printf("%g %g %g\n", seen[0], seen[1], seen[2]);
   return 0;
}
