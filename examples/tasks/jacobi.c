/* jacobi — Jacobi relaxation of Laplace's equation on an N x N grid (plus a fixed boundary),
   the first of the thesis's OmpSs kernels (section 6.1.3, Figures 6.4-6.5). Two heap grids
   (one malloc each) alternate as source and destination; every sweep is split into BLOCKS
   blocks of rows, one task "jacobi" per block per sweep, each reading its rows of the source
   and the row above and below (the halo) and writing its rows of the destination.
   Usage: jacobi [N [BLOCKS [SWEEPS]]] (default 64 4 6; BLOCKS divides N). Prints "ok".

   Expected graph (default: 24 instances, 4 per sweep, 50 edges with --deps=raw): block b of
   sweep s reads what sweep s-1 wrote into its rows (N/BLOCKS rows of the grid object written
   in sweep s-1) and into the neighbour rows of blocks b-1 and b+1 (one row, 8 N bytes, each),
   so it has read-after-write edges from blocks b-1, b and b+1 of sweep s-1: (SWEEPS-1)(3
   BLOCKS-2) edges, a band of width 3 from sweep to sweep. There is no barrier between sweeps:
   block 0 of sweep s+1 can run as soon as blocks 0 and 1 of sweep s are done, before the last
   block of sweep s, so consecutive sweeps overlap in a wavefront - the thesis's observation
   that in Jacobi the parallelism comes from concurrency among iterations of the main loop.
   The critical path is SWEEPS tasks (one block per sweep). With --deps=raw+war+waw the
   write-after-read pairs coincide with those edges (block b of sweep s overwrites the rows
   that blocks b-1..b+1 of sweep s-1 read) and the write-after-write pairs add the edges
   block b of sweep s-2 -> block b of sweep s (the same grid rows), (SWEEPS-2) BLOCKS more:
   66 edges by default. The fixed boundary is written before tareador_ON: no edge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tareador.h"

/* Rows first..last (1-based interior rows) of dst from src; the grids are (n+2) x (n+2). */
static void relax(const double* src, double* dst, int n, int first, int last)
{
   int w = n + 2;
   for (int r = first; r <= last; r++)
      for (int c = 1; c <= n; c++)
         dst[r * w + c] = 0.25 * (src[(r - 1) * w + c] + src[(r + 1) * w + c] +
                                  src[r * w + c - 1] + src[r * w + c + 1]);
}

static void boundary(double* grid, int n)
{
   int w = n + 2;
   memset(grid, 0, sizeof(double) * w * w);
   for (int i = 0; i < w; i++) {
      grid[i] = 1.0;                       /* top: hot */
      grid[(n + 1) * w + i] = 0.0;         /* bottom: cold */
      grid[i * w] = (double)i / (n + 1);   /* left: ramp */
      grid[i * w + n + 1] = 0.5;           /* right */
   }
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 64;
   int blocks = argc > 2 ? atoi(argv[2]) : 4;
   int sweeps = argc > 3 ? atoi(argv[3]) : 6;
   if (n < 1 || blocks < 1 || blocks > n || n % blocks != 0 || sweeps < 1) {
      fprintf(stderr, "usage: jacobi [N [BLOCKS [SWEEPS]]], BLOCKS dividing N\n");
      return 2;
   }
   size_t bytes = sizeof(double) * (n + 2) * (n + 2);
   double* u = malloc(bytes);
   double* v = malloc(bytes);
   boundary(u, n);
   boundary(v, n);
   int rows = n / blocks;

   tareador_ON();
   double *src = u, *dst = v;
   for (int s = 0; s < sweeps; s++) {
      for (int b = 0; b < blocks; b++) {
         tareador_start_task("jacobi");
         relax(src, dst, n, 1 + b * rows, (b + 1) * rows);
         tareador_end_task("jacobi");
      }
      double* t = src;
      src = dst;
      dst = t;
   }
   tareador_OFF();

   /* Self-check: the same sweeps over the whole grid at once, bit for bit. */
   double* p = malloc(bytes);
   double* q = malloc(bytes);
   boundary(p, n);
   boundary(q, n);
   for (int s = 0; s < sweeps; s++) {
      relax(p, q, n, 1, n);
      double* t = p;
      p = q;
      q = t;
   }
   int ok = memcmp(p, src, bytes) == 0;
   double check = 0;
   for (size_t i = 0; i < bytes / sizeof(double); i++) check += src[i];
   printf("jacobi: %dx%d, %d blocks, %d sweeps, checksum %.6f %s\n", n, n, blocks, sweeps, check,
          ok ? "ok" : "WRONG");
   free(u);
   free(v);
   free(p);
   free(q);
   return ok ? 0 : 1;
}
