/* sparselu — LU factorization (no pivoting) of a sparse block matrix, as in the Barcelona
   OpenMP Tasks Suite (BOTS sparselu; the thesis's LU kernel, section 6.1.3). The matrix is
   NB x NB blocks of BS x BS floats; a block is a heap object of its own or NULL (all zeros).
   The factorization makes tasks lu0 (factor the diagonal block), fwd (a block of row kk),
   bdiv (a block of column kk) and bmod (an inner-block update A[ii][jj] -= A[ii][kk] A[kk][jj]).
   A NULL block that bmod must update is allocated by that bmod task (fill-in): a heap object
   created by a task, and the block-pointer array (itself a heap object) is written by it.
   Usage: sparselu [NB [BS]] (default 6 8). Prints the residual max|L U - A| and "ok".

     for kk:  lu0(A[kk][kk])
              for jj > kk, A[kk][jj] != NULL:  fwd(A[kk][kk], A[kk][jj])
              for ii > kk, A[ii][kk] != NULL:  bdiv(A[kk][kk], A[ii][kk])
              for ii > kk, jj > kk, both A[ii][kk] and A[kk][jj] != NULL:
                                               bmod(A[ii][kk], A[kk][jj], A[ii][jj])

   The tasks take the block-pointer array and indices and load the block pointers themselves,
   and main follows the fill-in with its own copy of the sparsity pattern: main never reads
   what a task wrote, so the main task never waits for one (in OmpSs terms: no taskwait).

   Sparsity (BOTS genmat): block (i,j) is present if |i-j| <= 1, or if i and j are both even
   and the smaller one is a multiple of 3; for NB = 6 that is the tridiagonal band plus (0,2),
   (2,0), (0,4), (4,0). Step kk = 0 then makes lu0, fwd of (0,1) (0,2) (0,4), bdiv of (1,0)
   (2,0) (4,0) and 9 bmod, 4 of which allocate their block: (1,4), (2,4), (4,1), (4,2) (the
   only fill-in); the later steps work on the filled-in trailing matrix.

   Expected graph for the default NB = 6: 43 instances (lu0 6, fwd 9, bdiv 9, bmod 19) and 96
   read-after-write edges. 75 of them are the block-level ones, through the block a task reads
   (a heap object of BS x BS x 4 = 256 bytes by default):
     lu0(kk)                 <- the last bmod of A[kk][kk] (kk > 0)
     fwd(kk,jj), bdiv(ii,kk) <- lu0(kk), and the last bmod of their own block (kk > 0)
     bmod(ii,jj,kk)          <- bdiv(ii,kk), fwd(kk,jj), and the previous bmod of A[ii][jj]
   The byte granularity finds 21 more, each implied by a path of the above:
     6  bmod -> bdiv: lu0 leaves the first row of the diagonal block as it is (it is already
        the first row of U), and bdiv reads it, so bdiv(ii,kk) also depends on the last bmod
        of A[kk][kk] (e.g. bmod(1,1,0) -> bdiv(2,1));
     7  bmod -> bmod: fwd leaves the first row of its block as it is (L has a unit diagonal),
        and the bmod that reads the block as `col` reads that row too, so it also depends on
        the bmod that wrote the block before fwd (e.g. bmod(1,2,0) -> bmod(2,2,1));
     8  through the block-pointer array only (8 bytes: the pointer a filling bmod stored, read
        by every later task that uses that block; e.g. bmod(4,1,0) -> bmod(4,2,1), which reads
        A[4][1] as bdiv(4,1) left it). The edge from a filling bmod to the next task of its
        block carries both the block and the pointer array.
   The critical path is lu0 -> fwd -> bmod of the next diagonal block -> lu0 ..., 3 NB - 2 =
   16 tasks; the fwd and bdiv of one step are mutually independent, and so are its bmod.
   Every write-after-read or write-after-write pair is also a read-after-write one (a block
   is rewritten only by a task that reads it first, the blocks of row and column kk are final
   once bmod reads them, a pointer is stored once), so --deps=raw+war+waw gives the same 96
   edges, the chains of a block marked write-after-write too. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

static int nb, bs; /* blocks per side, block side */

static float* at(float** A, int i, int j) { return A[i * nb + j]; }

static void lu0(float** A, int kk)
{
   float* diag = at(A, kk, kk);
   for (int k = 0; k < bs; k++)
      for (int i = k + 1; i < bs; i++) {
         diag[i * bs + k] /= diag[k * bs + k];
         for (int j = k + 1; j < bs; j++) diag[i * bs + j] -= diag[i * bs + k] * diag[k * bs + j];
      }
}

/* A[kk][jj] = L(kk,kk)^-1 A[kk][jj] (unit lower triangle). */
static void fwd(float** A, int kk, int jj)
{
   float *diag = at(A, kk, kk), *col = at(A, kk, jj);
   for (int j = 0; j < bs; j++)
      for (int k = 0; k < bs; k++)
         for (int i = k + 1; i < bs; i++) col[i * bs + j] -= diag[i * bs + k] * col[k * bs + j];
}

/* A[ii][kk] = A[ii][kk] U(kk,kk)^-1. */
static void bdiv(float** A, int ii, int kk)
{
   float *diag = at(A, kk, kk), *row = at(A, ii, kk);
   for (int i = 0; i < bs; i++)
      for (int k = 0; k < bs; k++) {
         row[i * bs + k] /= diag[k * bs + k];
         for (int j = k + 1; j < bs; j++) row[i * bs + j] -= row[i * bs + k] * diag[k * bs + j];
      }
}

/* A[ii][jj] -= A[ii][kk] A[kk][jj], allocating A[ii][jj] (zeros) if it is NULL. */
static void bmod(float** A, int ii, int jj, int kk)
{
   float *row = at(A, ii, kk), *col = at(A, kk, jj), *inner = at(A, ii, jj);
   if (inner == NULL) inner = A[ii * nb + jj] = calloc((size_t)bs * bs, sizeof(float));
   for (int i = 0; i < bs; i++)
      for (int j = 0; j < bs; j++) {
         float x = inner[i * bs + j];
         for (int k = 0; k < bs; k++) x -= row[i * bs + k] * col[k * bs + j];
         inner[i * bs + j] = x;
      }
}

static int present(int i, int j)
{
   if (abs(i - j) <= 1) return 1;
   return i % 2 == 0 && j % 2 == 0 && (i < j ? i : j) % 3 == 0;
}

int main(int argc, char** argv)
{
   nb = argc > 1 ? atoi(argv[1]) : 6;
   bs = argc > 2 ? atoi(argv[2]) : 8;
   if (nb < 1 || bs < 1 || nb * bs > 2048) {
      fprintf(stderr, "usage: sparselu [NB [BS]]\n");
      return 2;
   }
   int n = nb * bs;
   float** A = calloc((size_t)nb * nb, sizeof(float*));
   char* nz = calloc((size_t)nb * nb, 1); /* main's copy of the pattern */
   float* orig = calloc((size_t)n * n, sizeof(float));
   unsigned seed = 1;
   for (int i = 0; i < nb; i++)
      for (int j = 0; j < nb; j++) {
         if (!present(i, j)) continue;
         nz[i * nb + j] = 1;
         float* b = A[i * nb + j] = malloc(sizeof(float) * bs * bs);
         for (int r = 0; r < bs; r++)
            for (int c = 0; c < bs; c++) {
               seed = (3125 * seed) % 65536; /* BOTS's generator */
               float v = (float)((seed - 32768.0) / 16384.0);
               if (i == j && r == c) v += 2.0f * (float)n; /* dominant diagonal: stable */
               b[r * bs + c] = v;
               orig[(i * bs + r) * n + j * bs + c] = v;
            }
      }

   tareador_ON();
   for (int kk = 0; kk < nb; kk++) {
      tareador_start_task("lu0");
      lu0(A, kk);
      tareador_end_task("lu0");
      for (int jj = kk + 1; jj < nb; jj++)
         if (nz[kk * nb + jj]) {
            tareador_start_task("fwd");
            fwd(A, kk, jj);
            tareador_end_task("fwd");
         }
      for (int ii = kk + 1; ii < nb; ii++)
         if (nz[ii * nb + kk]) {
            tareador_start_task("bdiv");
            bdiv(A, ii, kk);
            tareador_end_task("bdiv");
         }
      for (int ii = kk + 1; ii < nb; ii++)
         if (nz[ii * nb + kk])
            for (int jj = kk + 1; jj < nb; jj++)
               if (nz[kk * nb + jj]) {
                  nz[ii * nb + jj] = 1;
                  tareador_start_task("bmod");
                  bmod(A, ii, jj, kk);
                  tareador_end_task("bmod");
               }
   }
   tareador_OFF();

   /* Self-check: L U (L unit lower, U upper, from the blocks; NULL blocks are zero). */
   double residual = 0, check = 0;
   int fill = 0;
   for (int i = 0; i < nb * nb; i++) fill += A[i] != NULL && !present(i / nb, i % nb);
   for (int r = 0; r < n; r++)
      for (int c = 0; c < n; c++) {
         double x = 0;
         for (int k = 0; k <= (r < c ? r : c); k++) {
            float* lb = at(A, r / bs, k / bs);
            float* ub = at(A, k / bs, c / bs);
            double l = k == r ? 1.0 : lb ? lb[(r % bs) * bs + k % bs] : 0.0;
            double u = ub ? ub[(k % bs) * bs + c % bs] : 0.0;
            x += l * u;
         }
         residual = fmax(residual, fabs(x - orig[r * n + c]));
         float* b = at(A, r / bs, c / bs);
         if (b) check += b[(r % bs) * bs + c % bs];
      }
   int ok = residual < 1e-5 * n;
   printf("sparselu: %dx%d blocks of %dx%d, %d filled in, checksum %.4f, residual %.2e %s\n", nb,
          nb, bs, bs, fill, check, residual, ok ? "ok" : "WRONG");
   for (int i = 0; i < nb * nb; i++) free(A[i]);
   free(A);
   free(nz);
   free(orig);
   return ok ? 0 : 1;
}
