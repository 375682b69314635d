/* stencil.c 1|2 N ITERATIONS — a sequential Jacobi stencil whose tasks name its units of work
   (tests/vg/comm.sh, the MPI prediction of docs/comm-predict.md): in 1-D, N points each the mean
   of itself and its two neighbours; in 2-D, N x N points each the mean of its 5-point stencil.
   Each update of a point is a task named after the point ("x I" or "p I J"), once per
   iteration: --comm=task-type gives the flows between points, which a partition into MPI ranks
   turns into halo exchanges. Two arrays, read one and written the other, alternately. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define MAX 64

static double grid[2][MAX + 2][MAX + 2];
static char names[MAX][MAX][16];

int main(int argc, char** argv)
{
   int dim = argc > 1 ? atoi(argv[1]) : 2, n = argc > 2 ? atoi(argv[2]) : 16;
   int iterations = argc > 3 ? atoi(argv[3]) : 4, rows = dim == 1 ? 1 : n;
   if (n < 1 || n > MAX || (dim != 1 && dim != 2)) return 1;
   for (int i = 0; i < rows; i++)
      for (int j = 0; j < n; j++) {
         if (dim == 1) snprintf(names[i][j], sizeof names[i][j], "x %d", j);
         else snprintf(names[i][j], sizeof names[i][j], "p %d %d", i, j);
         grid[0][i + 1][j + 1] = i + j;
      }
   tareador_ON();
   for (int t = 0; t < iterations; t++) {
      double (*in)[MAX + 2] = grid[t % 2], (*out)[MAX + 2] = grid[(t + 1) % 2];
      for (int i = 1; i <= rows; i++)
         for (int j = 1; j <= n; j++) {
            tareador_start_task(names[i - 1][j - 1]);
            if (dim == 1)
               out[i][j] = (in[i][j - 1] + in[i][j] + in[i][j + 1]) / 3;
            else
               out[i][j] = (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j] + in[i][j + 1]) / 5;
            tareador_end_task(names[i - 1][j - 1]);
         }
   }
   tareador_OFF();
   printf("%f\n", grid[iterations % 2][rows / 2 + 1][n / 2 + 1]);
   return 0;
}
