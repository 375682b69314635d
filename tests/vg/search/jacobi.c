/* jacobi — Jacobi relaxation on an N x N grid in blocks of rows, as examples/tasks/jacobi.c,
   sequential: the annotated decomposition makes each relax call (a block of one sweep) a task. */
#include <stdio.h>
#include <stdlib.h>

#include "search.h"

#define N 32
#define BLOCKS 4
#define SWEEPS 4
#define W (N + 2)

KERNEL void relax(const double* src, double* dst, int first, int last)
{
   for (int r = first; r <= last; r++)
      for (int c = 1; c <= N; c++)
         dst[r * W + c] = 0.25 * (src[(r - 1) * W + c] + src[(r + 1) * W + c] +
                                  src[r * W + c - 1] + src[r * W + c + 1]);
}

KERNEL void jacobi(double* u, double* v)
{
   int rows = N / BLOCKS;
   for (int s = 0; s < SWEEPS; s++) {
      double* src = s % 2 ? v : u;
      double* dst = s % 2 ? u : v;
      for (int b = 0; b < BLOCKS; b++)
         TASK("relax", relax(src, dst, 1 + b * rows, (b + 1) * rows));
   }
}

int main(void)
{
   TRACE_ON();
   double* u = malloc(sizeof(double) * W * W);
   double* v = malloc(sizeof(double) * W * W);
   for (int i = 0; i < W * W; i++) u[i] = v[i] = (i % W == 0 || i < W) ? 1.0 : 0.0;
   jacobi(u, v);
   double sum = 0;
   for (int i = 0; i < W * W; i++) sum += u[i];
   printf("jacobi: checksum %.6f\n", sum);
   free(u);
   free(v);
   TRACE_OFF();
   return 0;
}
