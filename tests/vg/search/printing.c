/* printing — a report that prints while independent steps go on, as a solver prints its
   progress: the C library's stdio state (stdout's FILE and buffer), which report and main's
   own printf both write, makes no dependency, as in a tasks run, so the search's report runs
   beside the steps as the annotated decomposition's does. */
#include <stdio.h>

#include "search.h"

#define N 2048
#define STEPS 8

static double grid[N], rows[STEPS][N];

KERNEL void report(const double* x)
{
   double s = 0;
   for (int r = 0; r < 40; r++)
      for (int i = 0; i < N; i++) s += x[i] * r;
   printf("printing: report %.1f\n", s);
}

KERNEL void step(double* y)
{
   for (int r = 0; r < 5; r++)
      for (int i = 0; i < N; i++) y[i] = y[i] * 0.5 + r;
}

int main(void)
{
   TRACE_ON();
   for (int i = 0; i < N; i++) grid[i] = i;
   TASK("report", report(grid));
   printf("printing: %d steps\n", STEPS);
   for (int k = 0; k < STEPS; k++) TASK("step", step(rows[k]));
   double sum = 0;
   for (int k = 0; k < STEPS; k++) sum += rows[k][N - 1];
   printf("printing: checksum %.1f\n", sum);
   TRACE_OFF();
   return 0;
}
