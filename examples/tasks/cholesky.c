/* cholesky — blocked Cholesky factorization A = L L^T, the thesis's irregular-parallelism
   example (Figure 2.8, and the case study of section 6.2.2, Figure 6.14, taskification T6):
   the left-looking tile loop with the four tile kernels as tasks named sgemm, ssyrk, spotrf and
   strsm. The matrix is DIM x DIM tiles of 16 x 16 floats, each tile its own malloc so that every
   tile is a distinct heap object (only the lower triangle of tiles is stored and used).
   Usage: cholesky [DIM] (default 4). Prints the residual max|L L^T - A| and "ok".

     for j:  for k < j: for i > j:  sgemm(A[i][k], A[j][k], A[i][j])   A[i][j] -= A[i][k] A[j][k]^T
             for i < j:             ssyrk(A[j][i], A[j][j])            A[j][j] -= A[j][i] A[j][i]^T
                                    spotrf(A[j][j])                    A[j][j] = chol(A[j][j])
             for i > j:             strsm(A[j][j], A[i][j])            A[i][j] = A[i][j] A[j][j]^-T

   Expected graph: DIM spotrf, DIM(DIM-1)/2 strsm, DIM(DIM-1)/2 ssyrk and DIM(DIM-1)(DIM-2)/6
   sgemm instances; for DIM = 4, 20 instances (4, 6, 6, 4) and 30 read-after-write edges, each
   through one tile (a heap object; 1024 bytes for a whole tile, fewer from a diagonal tile,
   of which only the lower triangle is written):
     spotrf(j)   <- the last ssyrk(j, j-1) (j > 0)
     strsm(i,j)  <- spotrf(j) (the diagonal tile) and the last sgemm(i, j, j-1) (j > 0)
     sgemm(i,j,k)<- strsm(i,k), strsm(j,k) and the previous sgemm(i, j, k-1) (k > 0)
     ssyrk(j,i)  <- strsm(j,i) and the previous ssyrk(j, i-1) (i > 0)
   Tiles are written only by the chain of kernels that own them (inout) and read only after
   their last write, so --deps=raw+war+waw gives the same 30 edges. The critical path is
   3 DIM - 2 tasks: spotrf(0) -> strsm(1,0) -> ssyrk(1,0) -> spotrf(1) -> strsm(2,1) -> ... ->
   spotrf(DIM-1); the sgemm and all but the last ssyrk of each column are off it. As the
   thesis notes of its Figure 2.9, some sgemm instances are mutually independent and some
   dependent, and sgemm can run concurrently with ssyrk instances - no barrier between the
   loops. As in its Figure 6.14, sgemm (the costliest kernel, and the most numerous one for
   DIM > 5) dominates the instructions as DIM grows; spotrf is short. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define NB 16 /* tile side */

typedef float Tile[NB][NB];

/* A = chol(A), in place on the lower triangle. */
static void spotrf_tile(Tile A)
{
   for (int k = 0; k < NB; k++) {
      A[k][k] = sqrtf(A[k][k]);
      for (int i = k + 1; i < NB; i++) A[i][k] /= A[k][k];
      for (int j = k + 1; j < NB; j++)
         for (int i = j; i < NB; i++) A[i][j] -= A[i][k] * A[j][k];
   }
}

/* B = B L^-T with L the lower triangle of T. */
static void strsm_tile(Tile T, Tile B)
{
   for (int r = 0; r < NB; r++)
      for (int j = 0; j < NB; j++) {
         float x = B[r][j];
         for (int k = 0; k < j; k++) x -= B[r][k] * T[j][k];
         B[r][j] = x / T[j][j];
      }
}

/* C -= A B^T. */
static void sgemm_tile(Tile A, Tile B, Tile C)
{
   for (int i = 0; i < NB; i++)
      for (int j = 0; j < NB; j++) {
         float x = C[i][j];
         for (int k = 0; k < NB; k++) x -= A[i][k] * B[j][k];
         C[i][j] = x;
      }
}

/* C -= A A^T, lower triangle. */
static void ssyrk_tile(Tile A, Tile C)
{
   for (int i = 0; i < NB; i++)
      for (int j = 0; j <= i; j++) {
         float x = C[i][j];
         for (int k = 0; k < NB; k++) x -= A[i][k] * A[j][k];
         C[i][j] = x;
      }
}

/* The symmetric positive definite input (strictly diagonally dominant), element (r, c). */
static float input(int r, int c, int n)
{
   return r == c ? (float)n : 1.0f / (float)(1 + (r + c) % 7 + abs(r - c));
}

int main(int argc, char** argv)
{
   int dim = argc > 1 ? atoi(argv[1]) : 4;
   if (dim < 1 || dim > 64) {
      fprintf(stderr, "usage: cholesky [DIM in 1..64]\n");
      return 2;
   }
   int n = dim * NB;
   Tile** A = calloc((size_t)dim * dim, sizeof(Tile*)); /* A[i * dim + j], i >= j */
   for (int i = 0; i < dim; i++)
      for (int j = 0; j <= i; j++) {
         Tile* t = A[i * dim + j] = malloc(sizeof(Tile));
         for (int r = 0; r < NB; r++)
            for (int c = 0; c < NB; c++) (*t)[r][c] = input(i * NB + r, j * NB + c, n);
      }
#define T(i, j) (*A[(i) * dim + (j)])

   tareador_ON();
   for (int j = 0; j < dim; j++) {
      for (int k = 0; k < j; k++)
         for (int i = j + 1; i < dim; i++) {
            tareador_start_task("sgemm");
            sgemm_tile(T(i, k), T(j, k), T(i, j));
            tareador_end_task("sgemm");
         }
      for (int i = 0; i < j; i++) {
         tareador_start_task("ssyrk");
         ssyrk_tile(T(j, i), T(j, j));
         tareador_end_task("ssyrk");
      }
      tareador_start_task("spotrf");
      spotrf_tile(T(j, j));
      tareador_end_task("spotrf");
      for (int i = j + 1; i < dim; i++) {
         tareador_start_task("strsm");
         strsm_tile(T(j, j), T(i, j));
         tareador_end_task("strsm");
      }
   }
   tareador_OFF();

   /* Self-check: L L^T against the input, on the lower triangle. */
   double residual = 0, check = 0;
   for (int r = 0; r < n; r++)
      for (int c = 0; c <= r; c++) {
         double x = 0;
         for (int k = 0; k <= c; k++)
            x += (double)T(r / NB, k / NB)[r % NB][k % NB] * T(c / NB, k / NB)[c % NB][k % NB];
         residual = fmax(residual, fabs(x - input(r, c, n)));
         check += T(r / NB, c / NB)[r % NB][c % NB];
      }
   int ok = residual < 1e-5 * n;
   printf("cholesky: %dx%d tiles of %dx%d, checksum %.4f, residual %.2e %s\n", dim, dim, NB, NB,
          check, residual, ok ? "ok" : "WRONG");
   for (int i = 0; i < dim * dim; i++) free(A[i]);
   free(A);
   return ok ? 0 : 1;
}
