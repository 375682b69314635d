/* names.c — task names a program should not pass, and does: NULL, a pointer to nothing, a
   Latin-1 name (not UTF-8), a name of 300 bytes, a name with blanks and quotes, ends that name
   another task. The tool keeps tracing and writes a set that every reader takes, in valid
   UTF-8. */
#include <string.h>

#include "tareador.h"

int data[8];

int main(void)
{
   char long_name[301];
   memset(long_name, 'x', 300);
   long_name[300] = 0;
   tareador_ON();
   for (int round = 0; round < 2; round++) {
      tareador_start_task(NULL);
      data[0] = 1;
      tareador_end_task(NULL);
      tareador_start_task((const char*)16);
      data[1] = data[0];
      tareador_end_task((const char*)16);
      tareador_start_task("caf\xe9 cr\xe8me");
      data[2] = data[1];
      tareador_end_task("caf\xe9 cr\xe8me");
      tareador_start_task(long_name);
      data[3] = data[2];
      tareador_end_task(long_name);
      tareador_start_task("copy \"block\" \\ 1");
      data[4] = data[3];
      tareador_end_task("copy \"block\" \\ 1");
      /* Ends that name another open task: each ends the innermost one. */
      tareador_start_task("outer");
      tareador_start_task("inner");
      data[5] = data[4];
      tareador_end_task("outer");
      tareador_end_task("inner");
   }
   tareador_OFF();
   return 0;
}
