/* transpose — in-place blocked transpose of an N x N matrix: each diagonal block transposed in
   place, each pair of blocks (i, j), (j, i) swapped transposed. The annotated decomposition
   makes each block call a task; all of them are independent. */
#include <stdio.h>
#include <stdlib.h>

#include "search.h"

#define N 64
#define B 16
#define NB (N / B)

KERNEL void transpose_block(double* a, int bi)
{
   for (int r = 0; r < B; r++)
      for (int c = r + 1; c < B; c++) {
         double* x = &a[(bi * B + r) * N + bi * B + c];
         double* y = &a[(bi * B + c) * N + bi * B + r];
         double t = *x;
         *x = *y;
         *y = t;
      }
}

KERNEL void swap_blocks(double* a, int bi, int bj)
{
   for (int r = 0; r < B; r++)
      for (int c = 0; c < B; c++) {
         double* x = &a[(bi * B + r) * N + bj * B + c];
         double* y = &a[(bj * B + c) * N + bi * B + r];
         double t = *x;
         *x = *y;
         *y = t;
      }
}

KERNEL void transpose(double* a)
{
   for (int i = 0; i < NB; i++) {
      TASK("transpose_block", transpose_block(a, i));
      for (int j = i + 1; j < NB; j++) TASK("swap_blocks", swap_blocks(a, i, j));
   }
}

int main(void)
{
   TRACE_ON();
   double* a = malloc(sizeof(double) * N * N);
   for (int i = 0; i < N * N; i++) a[i] = i;
   transpose(a);
   int ok = 1;
   for (int r = 0; r < N; r++)
      for (int c = 0; c < N; c++) ok &= a[r * N + c] == (double)(c * N + r);
   printf("transpose: %s\n", ok ? "ok" : "WRONG");
   free(a);
   TRACE_OFF();
   return ok ? 0 : 1;
}
