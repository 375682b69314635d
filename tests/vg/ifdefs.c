/* Tareador calls compiled only in the traced build (built with -DTRACE; tests/vg/emit_source.sh),
   as course code guards them: a task's start inside #ifdef TRACE and its end outside, another
   task's start and end each in an #if of its own. The OpenMP build, without TRACE, must have
   the tasks all the same, and build: their pragmas and braces go outside the conditionals. */
#include <stdio.h>
#include <tareador.h>

#define BLOCKS 4
#define SIZE 20000

double part[BLOCKS], scaled[BLOCKS];

static void work(int b)
{
   double s = 0;
   for (int i = 0; i < SIZE; i++) s += i % (b + 2);
   part[b] = s;
}

int main(void)
{
#ifdef TRACE
   tareador_ON();
#endif
   for (int b = 0; b < BLOCKS; b++) {
#ifdef TRACE
      tareador_start_task("work");
#endif
      work(b);
      tareador_end_task("work");
   }
   for (int b = 0; b < BLOCKS; b++) {
#if defined(TRACE)
      tareador_start_task("scale");
#endif
      scaled[b] = part[b] * 0.5;
#if defined(TRACE)
      tareador_end_task("scale");
#endif
   }
#ifdef TRACE
   tareador_OFF();
#endif
   double sum = 0;
   for (int b = 0; b < BLOCKS; b++) sum += scaled[b];
   printf("sum %.1f\n", sum);
   return 0;
}
