/* dot — the dot product of the course labs, written as students write it: the vectors are cut
   into BLOCKS blocks, one task per block, and every task adds its partial result into `result`,
   a local variable of main that the tasks reach through a pointer. The labs' lesson:
     dot keep      the accumulator is left alone: each task reads what the previous one wrote,
                   so the tasks chain through it (BLOCKS-1 edges through stack:result, no
                   parallelism)
     dot disable   each task disables the accumulator around its update
                   (tareador_disable_object: what a reduction, or an atomic or critical update,
                   does in the parallel version): the tasks become independent
   The vectors are filled before tareador_ON(), so only the dot product is studied (docs/tasks.md
   walks through both runs).
   Usage: dot [disable|keep] [N [BLOCKS]] (default keep 65536 16). Prints the result and exits
   0 when it is exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tareador.h"

#define MAX_N (1 << 20)

double A[MAX_N];

static double partial(const double* a, const double* b, long from, long to)
{
   double s = 0;
   for (long i = from; i < to; i++) s += a[i] * b[i];
   return s;
}

static void dot_product(long n, long blocks, const double* a, const double* b, double* acc,
                        int disable)
{
   long bs = (n + blocks - 1) / blocks;
   double block_sum;
   *acc = 0.0;
   for (long from = 0; from < n; from += bs) {
      tareador_start_task("dot_product");
      block_sum = partial(a, b, from, from + bs < n ? from + bs : n);
      if (disable) tareador_disable_object(acc);
      *acc += block_sum;
      if (disable) tareador_enable_object(acc);
      tareador_end_task("dot_product");
   }
}

int main(int argc, char** argv)
{
   int disable = argc > 1 && strcmp(argv[1], "disable") == 0;
   long n = argc > 2 ? atol(argv[2]) : 65536;
   long blocks = argc > 3 ? atol(argv[3]) : 16;
   if ((argc > 1 && !disable && strcmp(argv[1], "keep") != 0) || n < 1 || n > MAX_N ||
       blocks < 1 || blocks > n) {
      fprintf(stderr, "usage: dot [disable|keep] [N (1..%d) [BLOCKS (1..N)]]\n", MAX_N);
      return 2;
   }
   double result;
   double* B = malloc(n * sizeof(double));
   for (long i = 0; i < n; i++) {
      A[i] = (double)(i % 17) / 4.0;
      B[i] = (double)((i * 5) % 13) / 8.0;
   }
   tareador_ON();
   dot_product(n, blocks, A, B, &result, disable);
   tareador_OFF();

   /* A[i] * 4 and B[i] * 8 are integers: the sum is exact in double, whatever the order. */
   long exact = 0;
   for (long i = 0; i < n; i++) exact += (long)(i % 17) * ((i * 5) % 13);
   int ok = result * 32 == (double)exact;
   printf("dot %s: n %ld, %ld blocks, result %.6f %s\n", disable ? "disable" : "keep", n,
          blocks, result, ok ? "ok" : "WRONG");
   free(B);
   return ok ? 0 : 1;
}
