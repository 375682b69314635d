/* cholesky — blocked Cholesky factorisation of DIM x DIM tiles, as examples/tasks/cholesky.c,
   sequential: the annotated decomposition makes each tile kernel call a task. */
#include <stdio.h>
#include <stdlib.h>

#include "search.h"

#define NB 16
#define DIM 6

typedef float Tile[NB][NB];

KERNEL void spotrf(Tile A)
{
   for (int k = 0; k < NB; k++) {
      float d = A[k][k], s = d;  /* square root by Newton's method: no libm call */
      for (int it = 0; it < 20; it++) s = 0.5f * (s + d / s);
      A[k][k] = s;
      for (int i = k + 1; i < NB; i++) A[i][k] /= A[k][k];
      for (int j = k + 1; j < NB; j++)
         for (int i = j; i < NB; i++) A[i][j] -= A[i][k] * A[j][k];
   }
}

KERNEL void strsm(Tile T, Tile B)
{
   for (int r = 0; r < NB; r++)
      for (int j = 0; j < NB; j++) {
         float x = B[r][j];
         for (int k = 0; k < j; k++) x -= B[r][k] * T[j][k];
         B[r][j] = x / T[j][j];
      }
}

KERNEL void sgemm(Tile A, Tile B, Tile C)
{
   for (int i = 0; i < NB; i++)
      for (int j = 0; j < NB; j++) {
         float x = C[i][j];
         for (int k = 0; k < NB; k++) x -= A[i][k] * B[j][k];
         C[i][j] = x;
      }
}

KERNEL void ssyrk(Tile A, Tile C)
{
   for (int i = 0; i < NB; i++)
      for (int j = 0; j <= i; j++) {
         float x = C[i][j];
         for (int k = 0; k < NB; k++) x -= A[i][k] * A[j][k];
         C[i][j] = x;
      }
}

#define T(i, j) (*A[(i) * DIM + (j)])

KERNEL void cholesky(Tile** A)
{
   for (int j = 0; j < DIM; j++) {
      for (int k = 0; k < j; k++)
         for (int i = j + 1; i < DIM; i++) TASK("sgemm", sgemm(T(i, k), T(j, k), T(i, j)));
      for (int i = 0; i < j; i++) TASK("ssyrk", ssyrk(T(j, i), T(j, j)));
      TASK("spotrf", spotrf(T(j, j)));
      for (int i = j + 1; i < DIM; i++) TASK("strsm", strsm(T(j, j), T(i, j)));
   }
}

int main(void)
{
   TRACE_ON();
   Tile** A = malloc(sizeof(Tile*) * DIM * DIM);
   for (int i = 0; i < DIM; i++)
      for (int j = 0; j <= i; j++) {
         A[i * DIM + j] = malloc(sizeof(Tile));
         for (int r = 0; r < NB; r++)
            for (int c = 0; c < NB; c++)
               T(i, j)[r][c] = i == j && r == c ? DIM * NB : 1.0f / (1 + (r + c) % 5 + i + j);
      }
   cholesky(A);
   float trace = 0;
   for (int j = 0; j < DIM; j++)
      for (int r = 0; r < NB; r++) trace += T(j, j)[r][r];
   printf("cholesky: trace of L %.4f\n", trace);
   for (int i = 0; i < DIM; i++)
      for (int j = 0; j <= i; j++) free(A[i * DIM + j]);
   free(A);
   TRACE_OFF();
   return 0;
}
