/* work.h — the computation of the examples: `passes` sweeps over `n` doubles. Its cost in
   instructions is what the trace's bursts count. */
#ifndef EXAMPLES_WORK_H
#define EXAMPLES_WORK_H

static double work(double* data, int n, int passes)
{
   double sum = 0;
   for (int pass = 0; pass < passes; pass++)
      for (int i = 0; i < n; i++) sum += data[i] = data[i] * 0.999 + 1.0;
   return sum;
}

#endif
