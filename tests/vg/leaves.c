/* leaves — a recursive task tree whose leaves add into a global disabled around the update (the
   labs' reductions, BOTS nqueens' solution counter) in the function the tasks call, outside
   their code (tests/vg/emit_source.sh). The update creates no task, so the annotated source
   makes it a critical section: without one, updates are lost on several threads. Usage: leaves
   DEPTH */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

long leaves = 0;

void tree(int depth)
{
   if (depth == 0) {
      tareador_disable_object(&leaves);
      leaves += 1;
      tareador_enable_object(&leaves);
      return;
   }
   tareador_start_task("tree");
   tree(depth - 1);
   tareador_end_task("tree");
   tareador_start_task("tree");
   tree(depth - 1);
   tareador_end_task("tree");
}

int main(int argc, char* argv[])
{
   int depth = argc > 1 ? atoi(argv[1]) : 3;
   tareador_ON();
   tree(depth);
   tareador_OFF();
   printf("leaves %ld of %ld\n", leaves, 1L << depth);
   return 0;
}
