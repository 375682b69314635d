/* onefunction — a kernel that is one function with its loops inside (as PolyBench writes
   them): the search can break it only as a whole, so no decomposition gains, and it says why. */
#include <stdio.h>

#include "search.h"

#define N 64

static double a[N][N], b[N][N], c[N][N];

KERNEL void kernel(void)
{
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
         double s = 0;
         for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
         c[i][j] = s;
      }
}

int main(void)
{
   TRACE_ON();
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) a[i][j] = b[j][i] = i + j;
   TASK("kernel", kernel());
   TRACE_OFF();
   printf("onefunction: %.1f\n", c[N - 1][N - 1]);
   return 0;
}
