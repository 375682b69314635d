/* fft3d — the task decomposition of a 3D FFT as parallelism courses give it: a complex N x N x N
   grid, 1D transforms along the rows of every plane, and transpositions that bring each
   dimension in turn into the rows. Tasks: "start_plan" (the plan: the grid size, which the main
   code reads back), "init_grid" per row (k, j), "fft_rows" per row (k, j) (a direct DFT of the
   row), "transpose_xy" per plane k (swaps the two inner dimensions of the plane) and
   "transpose_zx" per plane k of the input (scatters it across every plane of the output). The
   grid and its scratch copy are two heap objects. Usage: fft3d [N] (default 10: 441 instances,
   the size of the course's lab, whose graph a flat layout draws as a line). Prints "ok".

   Expected graph (N = 10; edges with --deps=raw): the phases are
     init_grid(in) -> fft_rows(in) -> transpose_xy(in->tmp) -> fft_rows(tmp) ->
     transpose_zx(tmp->in) -> fft_rows(in) -> transpose_zx(in->tmp) -> transpose_xy(tmp->in)
   with 1 + N^2 + N^2 + N + N^2 + N + N^2 + N + N = 441 instances. fft_rows(k, j) reads the row
   init_grid(k, j) wrote (N^2 edges); transpose_xy(k) reads the N rows of plane k (N^2 edges);
   each fft_rows of the second phase reads one row that one transpose_xy wrote (N^2 edges); a
   transpose_zx reads a plane that N fft_rows wrote (N^2 edges, twice) and writes one element of
   every row of the output, so each fft_rows of the third phase depends on all N transpose_zx
   (N^3 = 1000 edges), and each final transpose_xy on all N transpose_zx of the last phase (N^2).
   1700 edges in all; start_plan has none (only main reads the plan). Every phase but the
   transpositions is N^2 = 100 tasks wide: the graph is 8 levels of up to 101 instances. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

typedef struct {
   double re, im;
} complex_t;

static int n = 10;
static int plan_n;  /* the plan: written by start_plan, read by main */

#define AT(grid, k, j, i) ((grid)[((size_t)(k) * n + (j)) * n + (i)])

static void init_row(complex_t* grid, int k, int j)
{
   for (int i = 0; i < n; i++) {
      AT(grid, k, j, i).re = (double)((k * 31 + j * 17 + i * 7) % 13) - 6.0;
      AT(grid, k, j, i).im = (double)((k * 5 + j * 3 + i) % 7) - 3.0;
   }
}

/* An in-place direct DFT of one row. */
static void fft_row(complex_t* grid, int k, int j)
{
   complex_t out[n];
   const double two_pi = 6.283185307179586;
   for (int f = 0; f < n; f++) {
      double re = 0, im = 0;
      for (int i = 0; i < n; i++) {
         double a = -two_pi * f * i / n;
         re += AT(grid, k, j, i).re * cos(a) - AT(grid, k, j, i).im * sin(a);
         im += AT(grid, k, j, i).re * sin(a) + AT(grid, k, j, i).im * cos(a);
      }
      out[f].re = re;
      out[f].im = im;
   }
   for (int i = 0; i < n; i++) AT(grid, k, j, i) = out[i];
}

static void fft_planes(complex_t* grid)
{
   for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++) {
         tareador_start_task("fft_rows");
         fft_row(grid, k, j);
         tareador_end_task("fft_rows");
      }
}

/* dst[k][i][j] = src[k][j][i], one task per plane. */
static void transpose_xy(const complex_t* src, complex_t* dst)
{
   for (int k = 0; k < n; k++) {
      tareador_start_task("transpose_xy");
      for (int j = 0; j < n; j++)
         for (int i = 0; i < n; i++) AT(dst, k, i, j) = AT(src, k, j, i);
      tareador_end_task("transpose_xy");
   }
}

/* dst[i][j][k] = src[k][j][i], one task per plane of src. */
static void transpose_zx(const complex_t* src, complex_t* dst)
{
   for (int k = 0; k < n; k++) {
      tareador_start_task("transpose_zx");
      for (int j = 0; j < n; j++)
         for (int i = 0; i < n; i++) AT(dst, i, j, k) = AT(src, k, j, i);
      tareador_end_task("transpose_zx");
   }
}

int main(int argc, char** argv)
{
   n = argc > 1 ? atoi(argv[1]) : 10;
   if (n < 1) {
      fprintf(stderr, "usage: fft3d [N]\n");
      return 2;
   }
   size_t cells = (size_t)n * n * n;
   complex_t* in = malloc(sizeof(complex_t) * cells);
   complex_t* tmp = malloc(sizeof(complex_t) * cells);

   tareador_ON();
   tareador_start_task("start_plan");
   plan_n = n;
   tareador_end_task("start_plan");
   for (int k = 0; k < plan_n; k++)
      for (int j = 0; j < plan_n; j++) {
         tareador_start_task("init_grid");
         init_row(in, k, j);
         tareador_end_task("init_grid");
      }
   fft_planes(in);
   transpose_xy(in, tmp);
   fft_planes(tmp);
   transpose_zx(tmp, in);
   fft_planes(in);
   transpose_zx(in, tmp);
   transpose_xy(tmp, in);
   tareador_OFF();

   /* The 3D DFT at frequency 0 is the sum of the grid's values. */
   double re = 0, im = 0;
   for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++) init_row(tmp, k, j);
   for (size_t c = 0; c < cells; c++) {
      re += tmp[c].re;
      im += tmp[c].im;
   }
   int ok = fabs(in[0].re - re) < 1e-6 * (1 + fabs(re)) &&
            fabs(in[0].im - im) < 1e-6 * (1 + fabs(im));
   printf("fft3d: %d x %d x %d, DC term %.3f%+.3fi %s\n", n, n, n, in[0].re, in[0].im,
          ok ? "ok" : "WRONG");
   free(in);
   free(tmp);
   return ok ? 0 : 1;
}
