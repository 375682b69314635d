/* dot — a dot product x . y split into CHUNKS chunks, a task per chunk, every task adding its
   partial sum into one global accumulator `double sum`: a reduction. Run twice:
     1. tasks "dot", with tareador_disable_object(&sum): the accumulator makes no dependency
        (as a reduction clause, or a per-thread partial sum, would make it), so the CHUNKS
        tasks are independent - no edge at all, the ideal machine runs them all at once;
     2. tasks "dot_chained", after tareador_enable_object(&sum): each task reads sum, which the
        previous one wrote, so the tasks chain through it - CHUNKS-1 read-after-write edges
        dot_chained#k -> dot_chained#k+1 through the global sum (8 bytes each), a critical
        path of CHUNKS tasks, no parallelism. With --deps=raw+war+waw the write-after-read and
        write-after-write pairs are the same pairs (each task also overwrites sum), no new edge.
   This is the thesis's porting-hint case (section 4.4.2): an object written by every instance
   of a task type is the one to declare as a reduction, or to privatize. x and y are heap
   arrays written before tareador_ON (no edge from them). Between the runs main reads sum and
   resets it while it is still disabled, so no edge joins the two runs either.
   Usage: dot [N [CHUNKS]] (default 65536 16). Prints both sums and "ok". */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

double sum;

static double partial(const double* x, const double* y, int from, int to)
{
   double s = 0;
   for (int i = from; i < to; i++) s += x[i] * y[i];
   return s;
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 65536;
   int chunks = argc > 2 ? atoi(argv[2]) : 16;
   if (n < 1 || chunks < 1 || chunks > n) {
      fprintf(stderr, "usage: dot [N [CHUNKS]]\n");
      return 2;
   }
   double* x = malloc(sizeof(double) * n);
   double* y = malloc(sizeof(double) * n);
   for (int i = 0; i < n; i++) {
      x[i] = (double)(i % 17) / 4.0;
      y[i] = (double)((i * 5) % 13) / 8.0;
   }
   int chunk = (n + chunks - 1) / chunks;

   tareador_ON();
   tareador_disable_object(&sum);
   for (int c = 0; c < chunks; c++) {
      tareador_start_task("dot");
      sum += partial(x, y, c * chunk, c * chunk + chunk < n ? c * chunk + chunk : n);
      tareador_end_task("dot");
   }
   double first = sum;
   sum = 0;
   tareador_enable_object(&sum);
   for (int c = 0; c < chunks; c++) {
      tareador_start_task("dot_chained");
      sum += partial(x, y, c * chunk, c * chunk + chunk < n ? c * chunk + chunk : n);
      tareador_end_task("dot_chained");
   }
   tareador_OFF();

   /* Self-check: the same partial sums in the same order, and the exact integer value
      (x[i] * 32 and y[i] * 8 are integers, the sum is exact in double). */
   double expected = 0;
   long exact = 0;
   for (int c = 0; c < chunks; c++)
      expected += partial(x, y, c * chunk, c * chunk + chunk < n ? c * chunk + chunk : n);
   for (int i = 0; i < n; i++) exact += (long)(i % 17) * ((i * 5) % 13);
   int ok = first == expected && sum == expected && expected * 32 == (double)exact;
   printf("dot: n %d, %d chunks, sum %.6f (disabled) %.6f (enabled) %s\n", n, chunks, first, sum,
          ok ? "ok" : "WRONG");
   free(x);
   free(y);
   return ok ? 0 : 1;
}
