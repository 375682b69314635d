/* multisort.c — the recursive sort of the course labs: a task per quarter sorted, merges as
   tasks, recursion down to a block of MIN elements. Sibling tasks write disjoint quarters, so
   the graph has no edge between them, whatever the optimisation level puts on the stack.
   Usage: multisort [N] (default 16384). Exits 0 when sorted. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

static long MIN = 1024;

static void basicsort(long n, int* data)
{
   for (long i = 1; i < n; i++) {
      int v = data[i];
      long j = i;
      for (; j > 0 && data[j - 1] > v; j--) data[j] = data[j - 1];
      data[j] = v;
   }
}

/* Elements [start, start+length) of the merge of left and right (n each) into result. */
static void basicmerge(long n, const int* left, const int* right, int* result, long start,
                       long length)
{
   long i = 0, j = 0, k;
   for (k = 0; k < start; k++) {
      if (i < n && (j >= n || left[i] <= right[j])) i++;
      else j++;
   }
   for (; k < start + length; k++)
      result[k] = i < n && (j >= n || left[i] <= right[j]) ? left[i++] : right[j++];
}

static void merge(long n, const int* left, const int* right, int* result, long start, long length)
{
   if (length < 2 * MIN) {
      basicmerge(n, left, right, result, start, length);
      return;
   }
   tareador_start_task("merge");
   merge(n, left, right, result, start, length / 2);
   tareador_end_task("merge");
   tareador_start_task("merge");
   merge(n, left, right, result, start + length / 2, length / 2);
   tareador_end_task("merge");
}

static void multisort(long n, int* data, int* tmp)
{
   if (n < 4 * MIN) {
      basicsort(n, data);
      return;
   }
   for (int q = 0; q < 4; q++) {
      tareador_start_task("sort");
      multisort(n / 4, data + q * n / 4, tmp + q * n / 4);
      tareador_end_task("sort");
   }
   tareador_start_task("merge");
   merge(n / 4, data, data + n / 4, tmp, 0, n / 2);
   tareador_end_task("merge");
   tareador_start_task("merge");
   merge(n / 4, data + n / 2, data + 3 * n / 4, tmp + n / 2, 0, n / 2);
   tareador_end_task("merge");
   tareador_start_task("merge");
   merge(n / 2, tmp, tmp + n / 2, data, 0, n);
   tareador_end_task("merge");
}

int main(int argc, char** argv)
{
   long n = argc > 1 ? atol(argv[1]) : 16384;
   int* data = malloc(n * sizeof(int));
   int* tmp = malloc(n * sizeof(int));
   for (long i = 0; i < n; i++) data[i] = (int)((i * 7919) % 10007);
   tareador_ON();
   multisort(n, data, tmp);
   tareador_OFF();
   for (long i = 1; i < n; i++)
      if (data[i - 1] > data[i]) return 1;
   printf("multisort: %ld elements sorted\n", n);
   free(data);
   free(tmp);
   return 0;
}
