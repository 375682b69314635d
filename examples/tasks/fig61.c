/* fig61 — the motivating example of the thesis, section 6.1.1, Figure 6.1, exactly: 19 static
   float buffers of 400 elements, 11 iterations, and per iteration three functions comp1, comp2,
   comp3 of equal duration, each working in place on two buffers chosen with its step (9, 10,
   11): comp_s(a[(i*s) % 19], a[(i*s+1) % 19]). Each call is a task named after its function
   that reads and writes both of its buffers (the figure's `inout(A,B)`).

   Expected graph (Figure 6.2): 33 task instances (11 of each type) and 42 edges, all
   read-after-write through the global `a` (each edge carries the 1600 bytes of one buffer, or
   3200 bytes when both buffers of the later task come from the same earlier one, e.g.
   comp1#1 -> comp2#1 -> comp3#1 through a[0] and a[1]). Each task reads every byte of both
   buffers before writing it, so --deps=raw+war+waw adds no edge: it only marks the same edges
   WAR and WAW too. The critical path is 11 tasks long: comp1#1 -> comp2#1 -> comp3#1 ->
   comp1#3 -> comp1#5 -> comp3#6 -> comp1#7 -> comp1#9 -> comp2#10 -> comp1#11 -> comp3#11
   (#n is the iteration, 1-based; the only path of 11, the bold one of Figure 6.2). With equal
   task lengths, list scheduling in critical-path order takes 33, 17, 11 and 11 task lengths on
   1-4 cores, whatever the order among tasks of equal priority: the speedups 1.00 1.94 3.00
   3.00 of the thesis's Table 6.1 (a 4th core adds nothing; creation order, FIFO, needs 12 on 3
   cores).

   The three functions are the same code (one always-inlined kernel) so that their tasks
   execute the same number of instructions; the task annotations are inside them, so the
   prologue and epilogue (and the loop and index arithmetic in main) are the main task's, a
   negligible share of the run. Usage: fig61 (no arguments). Prints a checksum and "ok". */
#include <stdio.h>

#include "tareador.h"

#define buf_cnt 19
#define iterations 11
#define step1 9
#define step2 10
#define step3 11
#define buffer_length 400
#define PASSES 8

/* inout(A, B): every pass reads and writes every element of both buffers. */
static inline __attribute__((always_inline)) void kernel(float* A, float* B)
{
   for (int pass = 0; pass < PASSES; pass++)
      for (int k = 0; k < buffer_length; k++) {
         float x = A[k], y = B[k];
         A[k] = 0.5f * x + 0.25f * y + 1.0f;
         B[k] = 0.25f * x + 0.5f * y + 0.5f;
      }
}

#define COMP(NAME)                                                 \
   static __attribute__((noinline)) void NAME(float* A, float* B) \
   {                                                               \
      tareador_start_task(#NAME);                                  \
      kernel(A, B);                                                \
      tareador_end_task(#NAME);                                    \
   }
COMP(comp1)
COMP(comp2)
COMP(comp3)

int main(void)
{
   static float a[buf_cnt][buffer_length];

   tareador_ON();
   for (int i = 0; i < iterations; i++) {
      comp1(a[(i * step1) % buf_cnt], a[(i * step1 + 1) % buf_cnt]);
      comp2(a[(i * step2) % buf_cnt], a[(i * step2 + 1) % buf_cnt]);
      comp3(a[(i * step3) % buf_cnt], a[(i * step3 + 1) % buf_cnt]);
   }
   tareador_OFF();

   /* Self-check: the same sequence of updates on a copy, without the annotated functions. */
   static float b[buf_cnt][buffer_length];
   const int steps[3] = {step1, step2, step3};
   for (int i = 0; i < iterations; i++)
      for (int s = 0; s < 3; s++)
         kernel(b[(i * steps[s]) % buf_cnt], b[(i * steps[s] + 1) % buf_cnt]);
   double check = 0;
   int same = 1;
   for (int j = 0; j < buf_cnt; j++)
      for (int k = 0; k < buffer_length; k++) {
         check += a[j][k] * (j + 1);
         same &= a[j][k] == b[j][k];
      }
   printf("fig61: 33 tasks, checksum %.4f %s\n", check, same ? "ok" : "WRONG");
   return same ? 0 : 1;
}
