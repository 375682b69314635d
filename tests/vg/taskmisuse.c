/* taskmisuse.c — annotations out of place (tests/vg/tasks.sh): each is reported in the rank
   manifest's warnings, none stops the trace. Expected: instances main(1), a(2), b(3), c(4). */
#include "tareador.h"

int data[4];

int main(void)
{
   tareador_start_task("before_on");  /* not traced yet: ignored */
   tareador_end_task("before_on");
   tareador_ON();
   tareador_end_task("nothing_open"); /* warning: no task open */
   tareador_start_task("a");
   data[0] = 1;
   tareador_end_task("not_a");        /* warning: ends "a" all the same */
   tareador_start_task("b");
   data[1] = data[0];
   tareador_end_task("b");
   tareador_start_task("c");          /* warning: still open at tareador_OFF */
   data[2] = data[1];
   tareador_OFF();
   tareador_start_task("after_off");  /* not traced any more: ignored */
   tareador_end_task("after_off");
   return 0;
}
