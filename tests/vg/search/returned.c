/* returned — each call's result is the next call's argument, passed and returned in registers:
   x = step(x), eight times. The recording sees dependencies through memory only, so the calls
   of step look independent (near 4x on 4 cores); the annotated run, whose tasks load and store
   x themselves, chains them (1.0x), and the search warns of the gap (docs/search.md, Limits). */
#include <stdio.h>

#include "search.h"

#define CALLS 8

static double x = 1;

KERNEL double step(double v)
{
   for (int i = 0; i < 200000; i++) v = v * 0.999999 + 1e-6;
   return v;
}

int main(void)
{
   TRACE_ON();
   for (int k = 0; k < CALLS; k++) TASK("step", x = step(x));
   TRACE_OFF();
   printf("returned: %.6f\n", x);
   return 0;
}
