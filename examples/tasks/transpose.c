/* transpose — blocked out-of-place matrix transpose, the kernel behind the thesis's "HM
   transpose" (section 6.1.3, Figure 6.4: the most parallel of its four OmpSs kernels). A is
   N x N doubles cut into BS x BS blocks (NB = N / BS per side); a task "transpose" per pair of
   blocks {(I,J), (J,I)}, I <= J, writes B(J,I) = A(I,J)^T and B(I,J) = A(J,I)^T (one block
   when I = J). A second phase, "transpose_back", transposes B into C the same way, and C must
   equal A. Each matrix is one malloc. Usage: transpose [N [BS]] (default 128 32). Prints "ok".

   Expected graph (default NB = 4: 10 + 10 instances, 10 edges): the transpose tasks read A,
   written before tareador_ON, and write disjoint blocks of B, so they are all independent - no
   edge, full parallelism. transpose_back of the pair {(I,J), (J,I)} reads exactly the two
   blocks of B that transpose of the same pair wrote: one read-after-write edge each, from the
   transpose task of the same pair, through B (2 x BS x BS doubles: 16384 bytes by default,
   8192 for a diagonal block). Although every task of the second phase reads the same object
   B, the byte granularity finds these one-to-one edges, not a barrier between the phases.
   --deps=raw+war+waw adds nothing (nothing is overwritten). The graph is NB(NB+1)/2 chains of
   two tasks: critical path 2, up to NB(NB+1)/2 tasks at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tareador.h"

/* dst(J,I) = src(I,J)^T for one block; matrices n x n, blocks bs x bs. */
static void block_transpose(const double* src, double* dst, int n, int bs, int I, int J)
{
   for (int i = I * bs; i < (I + 1) * bs; i++)
      for (int j = J * bs; j < (J + 1) * bs; j++) dst[j * n + i] = src[i * n + j];
}

static void pair_transpose(const double* src, double* dst, int n, int bs, int I, int J)
{
   block_transpose(src, dst, n, bs, I, J);
   if (I != J) block_transpose(src, dst, n, bs, J, I);
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 128;
   int bs = argc > 2 ? atoi(argv[2]) : 32;
   if (n < 1 || bs < 1 || bs > n || n % bs != 0) {
      fprintf(stderr, "usage: transpose [N [BS]], BS dividing N\n");
      return 2;
   }
   int nb = n / bs;
   size_t bytes = sizeof(double) * n * n;
   double* A = malloc(bytes);
   double* B = malloc(bytes);
   double* C = malloc(bytes);
   for (int i = 0; i < n * n; i++) A[i] = (double)((i * 7919) % 1009) / 8.0;

   tareador_ON();
   for (int I = 0; I < nb; I++)
      for (int J = I; J < nb; J++) {
         tareador_start_task("transpose");
         pair_transpose(A, B, n, bs, I, J);
         tareador_end_task("transpose");
      }
   for (int I = 0; I < nb; I++)
      for (int J = I; J < nb; J++) {
         tareador_start_task("transpose_back");
         pair_transpose(B, C, n, bs, I, J);
         tareador_end_task("transpose_back");
      }
   tareador_OFF();

   int ok = memcmp(A, C, bytes) == 0;
   for (int i = 0; i < n && ok; i++)
      for (int j = 0; j < n; j++) ok &= B[j * n + i] == A[i * n + j];
   double check = 0;
   for (int i = 0; i < n; i++) check += B[i * n + (i * 3) % n] * (i + 1);
   printf("transpose: %dx%d, blocks %dx%d, checksum %.4f %s\n", n, n, bs, bs, check,
          ok ? "ok" : "WRONG");
   free(A);
   free(B);
   free(C);
   return ok ? 0 : 1;
}
