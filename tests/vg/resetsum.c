/* resetsum — reductions read or set again by the code that set them up, which wrote their bytes
   last itself (tests/vg/tasks.sh): tasks add into a disabled total; a reader depends on those that
   added since the total was last set, wherever that was:
     main sets acc, add #2 #3 add to it, use #4 reads it: after #2 #3;
     main sets acc again, add #5 #6 add to it, use #7 reads it: after #5 #6 only;
     outer #8 sets the global sum, creates add #9 #10 into it and put #11, which writes x, then
     reads both: it waits there for #9 #10 #11;
     local #12 does the same with a local variable of a function it calls: it waits for its
     children add #13 #14 where that function reads it;
     main reads acc: it waits there for #5 #6;
     peek #15 reads acc, add #16 #17 add to it, main sets it again: with write-after-read main
     comes after peek #15, with write-after-write after add #5 #6 #16 #17 (and, when it set acc
     the second time, after #2 #3).
   Prints the results. */
#include <stdio.h>

#include "tareador.h"

double acc, sum, x, seen[4];

static double __attribute__((noinline)) work(int k)
{
   double s = 0;
   for (int i = 0; i < 1000; i++) s += (i * k) % 7;
   return s;
}

static void __attribute__((noinline)) add(double* total, int k)
{
   double v = work(k);
   tareador_disable_object(total);
   *total += v;
   tareador_enable_object(total);
}

static void __attribute__((noinline)) round_of_adds(double* total, int first)
{
   for (int k = first; k < first + 2; k++) {
      tareador_start_task("add");
      add(total, k);
      tareador_end_task("add");
   }
}

static double __attribute__((noinline)) local_total(void)
{
   double total = 0;
   round_of_adds(&total, 8);
   return total;
}

int main(void)
{
   tareador_ON();
   acc = 0;
   round_of_adds(&acc, 1);
   tareador_start_task("use");
   seen[0] = acc;
   tareador_end_task("use");
   acc = 0;
   round_of_adds(&acc, 3);
   tareador_start_task("use");
   seen[1] = acc;
   tareador_end_task("use");

   tareador_start_task("outer");
   sum = 0;
   round_of_adds(&sum, 5);
   tareador_start_task("put");
   x = work(7);
   tareador_end_task("put");
   seen[2] = sum + x;
   tareador_end_task("outer");

   tareador_start_task("local");
   seen[3] = local_total();
   tareador_end_task("local");
   double last = acc;
   tareador_start_task("peek");
   seen[0] = acc;
   tareador_end_task("peek");
   round_of_adds(&acc, 10);
   acc = 1;
   tareador_OFF();
   printf("%g %g %g %g %g\n", seen[0], seen[1], seen[2], seen[3], last);
   return 0;
}
