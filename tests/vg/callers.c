/* callers — tasks created in functions that main calls, working on main's own arrays, which
   they reach through the functions' parameters (tests/vg/tasks.sh, emit_source.sh): a vector
   relaxed in place block by block (each block reads its neighbours' edges, so a block waits for
   the one before it in the same sweep and the one after it in the sweep before), and a matrix
   whose row blocks read the next block's rows. The arrays are locals of main, not of the code
   that creates the tasks: the tasks share them through pointers, and the clauses must order
   them as they would heap blocks (without the clauses the sums come out wrong). */
#include <stdio.h>

#include "tareador.h"

#define N 4096
#define BLOCKS 8
#define SWEEPS 4
#define M 64
#define ROWS 16

void relax(double* v, int n, int blocks, int sweeps)
{
   int size = n / blocks;
   for (int s = 0; s < sweeps; s++)
      for (int b = 0; b < blocks; b++) {
         tareador_start_task("relax");
         int first = b == 0 ? 1 : b * size, last = b == blocks - 1 ? n - 1 : (b + 1) * size;
         for (int i = first; i < last; i++) v[i] = (v[i - 1] + v[i] + v[i + 1]) / 3.0;
         tareador_end_task("relax");
      }
}

void shift_rows(double a[M][M], int steps)
{
   for (int k = 0; k < steps; k++)
      for (int b = 0; b < M / ROWS; b++) {
         tareador_start_task("rows");
         for (int i = b * ROWS; i < (b + 1) * ROWS; i++)
            for (int j = 0; j < M; j++) a[i][j] = 0.5 * a[i][j] + 0.25 * a[(i + ROWS) % M][j];
         tareador_end_task("rows");
      }
}

int main(void)
{
   double v[N], a[M][M];
   for (int i = 0; i < N; i++) v[i] = i % 7;
   for (int i = 0; i < M; i++)
      for (int j = 0; j < M; j++) a[i][j] = (i * j) % 5;
   tareador_ON();
   relax(v, N, BLOCKS, SWEEPS);
   shift_rows(a, 3);
   tareador_OFF();
   double s = 0, t = 0;
   for (int i = 0; i < N; i++) s += v[i] * (i % 13);
   for (int i = 0; i < M; i++)
      for (int j = 0; j < M; j++) t += a[i][j] * ((i + j) % 3);
   printf("%.6f %.6f\n", s, t);
   return 0;
}
