/* stack_tasks — a stack-heavy loop with tasks, for bench/tasks.sh: SWEEPS sweeps of a filter
   over an array of N values in BLOCKS blocks, one task per block and sweep. A task copies each
   element's window of 8 neighbours into a local array and weighs it with local weights, so
   compiled at -O0 (how courses compile) nearly every access is to the task's own frame; block b
   of sweep s depends on blocks b and b+1 of sweep s-1 (the windows reach into the next block).
   The result is checked against the same filter run again after tareador_OFF; prints "ok".
   Usage: stack_tasks [N [BLOCKS [SWEEPS]]] (default 8192 64 8: 512 task instances). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tareador.h"

#define WINDOW 8

static void filter_block(const long* in, long* out, int first, int count, int n)
{
   long weights[WINDOW] = {3, 1, 4, 1, 5, 9, 2, 6};
   long window[WINDOW];
   for (int i = first; i < first + count; i++) {
      for (int w = 0; w < WINDOW; w++) window[w] = in[(i + w) % n];
      long value = 0;
      for (int w = 0; w < WINDOW; w++) value += window[w] * weights[w];
      out[i] = value % 251;
   }
}

/* SWEEPS sweeps from `a` (the result ends in `a`), one task per block when `tasks`. */
static void sweep_all(long* a, long* b, int n, int blocks, int sweeps, int tasks)
{
   int size = (n + blocks - 1) / blocks;
   for (int s = 0; s < sweeps; s++) {
      for (int first = 0; first < n; first += size) {
         if (tasks) tareador_start_task("filter");
         filter_block(a, b, first, first + size <= n ? size : n - first, n);
         if (tasks) tareador_end_task("filter");
      }
      memcpy(a, b, sizeof(long) * n);
   }
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 8192, blocks = argc > 2 ? atoi(argv[2]) : 64;
   int sweeps = argc > 3 ? atoi(argv[3]) : 8;
   if (n < WINDOW || blocks < 1 || sweeps < 0) {
      fprintf(stderr, "usage: stack_tasks [N [BLOCKS [SWEEPS]]]\n");
      return 2;
   }
   long* a = malloc(sizeof(long) * n);
   long* b = malloc(sizeof(long) * n);
   long* expected = malloc(sizeof(long) * n);
   long* scratch = malloc(sizeof(long) * n);
   if (a == NULL || b == NULL || expected == NULL || scratch == NULL) return 1;
   for (int i = 0; i < n; i++) a[i] = expected[i] = i % 97;
   tareador_ON();
   sweep_all(a, b, n, blocks, sweeps, 1);
   tareador_OFF();
   sweep_all(expected, scratch, n, blocks, sweeps, 0);
   if (memcmp(a, expected, sizeof(long) * n) != 0) {
      printf("wrong result\n");
      return 1;
   }
   printf("ok\n");
   free(a);
   free(b);
   free(expected);
   free(scratch);
   return 0;
}
