/* nested — a recursive reduction whose every task disables the accumulator around its whole
   body, as course labs do around a recursive search (tests/vg/tasks.sh). Disables nest: the
   children's enable does not end their parent's disable, so the 14 visit tasks make no
   dependency through `total` (they only add to it); the report task that reads it afterwards,
   once every disable has its enable, depends on all of them. Prints the total. */
#include <stdio.h>

#include "tareador.h"

double total, shown;

static double __attribute__((noinline)) leaf_work(int k)
{
   double s = 0;
   for (int i = 0; i < 1000; i++) s += (i % 7) * k;
   return s;
}

static void visit(int depth)
{
   for (int k = 0; k < 2; k++) {
      tareador_start_task("visit");
      tareador_disable_object(&total);
      if (depth > 0) visit(depth - 1);
      total += leaf_work(k + depth); /* still inside this task's own disable */
      tareador_enable_object(&total);
      tareador_end_task("visit");
   }
}

int main(void)
{
   tareador_ON();
   visit(2);
   tareador_start_task("report");
   shown = total;
   tareador_end_task("report");
   tareador_OFF();
   printf("total %.1f\n", shown);
   return 0;
}
