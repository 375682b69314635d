/* A recursive prefix sum whose tasks create tasks only above a leaf size (tests/vg/emit_source.sh).
   Traced at a size where the recursion under each "half" task reaches a leaf at once (no task
   under it in the trace), the annotated source must still wait for a half's children at its
   end: on a larger input it has some, and "combine" reads what they wrote.
   Usage: prefix [N] (default 128). */
#include <stdio.h>
#include <stdlib.h>
#include <tareador.h>

#define LEAF 64

static void scan(long* v, long n)
{
   if (n <= LEAF) {
      for (long i = 1; i < n; i++) v[i] += v[i - 1];
      return;
   }
   tareador_start_task("half");
   scan(v, n / 2);
   tareador_end_task("half");
   tareador_start_task("half");
   scan(v + n / 2, n - n / 2);
   tareador_end_task("half");
   tareador_start_task("combine");
   for (long i = n / 2; i < n; i++) v[i] += v[n / 2 - 1];
   tareador_end_task("combine");
}

int main(int argc, char** argv)
{
   long n = argc > 1 ? atol(argv[1]) : 128;
   long* v = malloc(n * sizeof(long));
   for (long i = 0; i < n; i++) v[i] = i % 3;
   tareador_ON();
   scan(v, n);
   tareador_OFF();
   long wrong = 0;
   for (long i = 1; i < n; i++) wrong += v[i] != v[i - 1] + i % 3;
   printf("n %ld last %ld wrong %ld\n", n, v[n - 1], wrong);
   free(v);
   return 0;
}
