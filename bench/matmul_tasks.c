/* matmul_tasks — a dense matrix-product kernel with row-block tasks, for bench/tasks.sh: STEPS
   times Y = X * P (P an N x N permutation matrix, multiplied densely: N^3 multiply-adds a step),
   then X and Y swap. One task per block of ROWS rows per step reads its rows of X and all of P
   and writes its rows of Y, so block b of step s depends on block b of step s-1 (and on nothing
   else: P is written before tareador_ON). P rotates columns by one, so the result is known
   exactly; prints "ok". Usage: matmul_tasks [N [ROWS [STEPS]]] (default 120 1 10: 1,200 task
   instances). */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

static void multiply_rows(int n, int first, int rows, const double* x, const double* p, double* y)
{
   for (int i = first; i < first + rows; i++)
      for (int j = 0; j < n; j++) {
         double sum = 0;
         for (int k = 0; k < n; k++) sum += x[i * n + k] * p[k * n + j];
         y[i * n + j] = sum;
      }
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 120, rows = argc > 2 ? atoi(argv[2]) : 1;
   int steps = argc > 3 ? atoi(argv[3]) : 10;
   if (n < 1 || rows < 1 || steps < 0) {
      fprintf(stderr, "usage: matmul_tasks [N [ROWS [STEPS]]]\n");
      return 2;
   }
   double* x = malloc(sizeof(double) * n * n);
   double* y = malloc(sizeof(double) * n * n);
   double* p = calloc((size_t)n * n, sizeof(double));
   if (x == NULL || y == NULL || p == NULL) return 1;
   for (int i = 0; i < n * n; i++) x[i] = i;
   for (int k = 0; k < n; k++) p[k * n + (k + 1) % n] = 1; /* column k of X moves to k + 1 */
   tareador_ON();
   for (int s = 0; s < steps; s++) {
      for (int first = 0; first < n; first += rows) {
         tareador_start_task("rows");
         multiply_rows(n, first, first + rows <= n ? rows : n - first, x, p, y);
         tareador_end_task("rows");
      }
      double* t = x;
      x = y;
      y = t;
   }
   tareador_OFF();
   for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
         if (x[i * n + j] != i * n + ((j - steps) % n + n) % n) {
            printf("wrong at %d,%d\n", i, j);
            return 1;
         }
   printf("ok\n");
   free(x);
   free(y);
   free(p);
   return 0;
}
