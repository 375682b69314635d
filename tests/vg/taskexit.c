/* taskexit.c — a program with tasks that does not end through tareador_OFF (tests/vg/tasks.sh):
   it returns from main, calls exit(), aborts or crashes inside task "b", as the first argument
   says (return, exit, abort, segv). The set stays valid and replayable in every case. */
#include <stdlib.h>

#include "tareador.h"

int data[4];

int main(int argc, char** argv)
{
   char how = argc > 1 ? argv[1][0] : 'r';
   tareador_ON();
   tareador_start_task("a");
   data[0] = 1;
   tareador_end_task("a");
   tareador_start_task("b");
   data[1] = data[0];
   if (how == 'e') exit(3);
   if (how == 'a') abort();
   if (how == 's') *(volatile int*)(long)(data[2] * 8) = 1;
   tareador_end_task("b");
   return 0;
}
