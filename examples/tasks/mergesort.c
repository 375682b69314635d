/* mergesort — recursive merge sort with nested tasks: tasks created inside tasks (thesis 4.4.1:
   "nesting of tasks is also supported"). The whole sort is a task "sort"; a sort task of more
   than CUTOFF elements creates a "sort" task for each half and then a "merge" task that merges
   the halves (through a scratch buffer) back into place; a sort task of CUTOFF elements or
   fewer sorts them itself (insertion sort). The array and the scratch buffer are two heap
   objects. Usage: mergesort [N [CUTOFF]] (default 4096 256). Prints a checksum and "ok".

   Expected graph (default: 16 leaves): 31 "sort" instances (1 + 2 + 4 + 8 + 16, each but the
   first nested in the sort of the enclosing range) and 15 "merge" instances, each nested in the
   sort of its range, 46 in all. A merge reads the two halves of its range of the array, last
   written by the task that finished each half: the leaf sort of that half, or the merge nested
   in the sort of that half. So there are exactly 2 read-after-write edges per merge (30 edges,
   each through the array: 4 bytes per element of the half), forming a binary reduction tree
   from the 16 leaf sorts to the outermost merge; the inner sort tasks, which touch no data
   themselves, have no edge - only nesting. Sibling sorts are independent, so the leaves can all
   run at once and the critical path is a leaf sort and log2(N/CUTOFF) = 4 merges (plus the
   enclosing sort tasks that create them). The merges also write and reread their range of the
   scratch buffer, which the merges of the halves wrote and read before: with
   --deps=raw+war+waw these give write-after-write and write-after-read on the same pairs (the
   edges from inner merges then carry both objects), no new pair. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

static int cutoff = 256;

static void insertion_sort(int* a, int n)
{
   for (int i = 1; i < n; i++) {
      int x = a[i], j = i;
      for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
      a[j] = x;
   }
}

/* a[0..h) and a[h..n) sorted -> a[0..n) sorted, through tmp[0..n). */
static void merge(int* a, int* tmp, int h, int n)
{
   int i = 0, j = h, k = 0;
   while (i < h && j < n) tmp[k++] = a[j] < a[i] ? a[j++] : a[i++];
   while (i < h) tmp[k++] = a[i++];
   while (j < n) tmp[k++] = a[j++];
   for (k = 0; k < n; k++) a[k] = tmp[k];
}

/* The body of a "sort" task. */
static void sort(int* a, int* tmp, int n)
{
   if (n <= cutoff) {
      insertion_sort(a, n);
      return;
   }
   int h = n / 2;
   tareador_start_task("sort");
   sort(a, tmp, h);
   tareador_end_task("sort");
   tareador_start_task("sort");
   sort(a + h, tmp + h, n - h);
   tareador_end_task("sort");
   tareador_start_task("merge");
   merge(a, tmp, h, n);
   tareador_end_task("merge");
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 4096;
   cutoff = argc > 2 ? atoi(argv[2]) : 256;
   if (n < 1 || cutoff < 1) {
      fprintf(stderr, "usage: mergesort [N [CUTOFF]]\n");
      return 2;
   }
   int* a = malloc(sizeof(int) * n);
   int* tmp = malloc(sizeof(int) * n);
   unsigned seed = 12345;
   long sum = 0;
   for (int i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      a[i] = (int)((seed >> 8) % 100000);
      sum += a[i];
   }

   tareador_ON();
   tareador_start_task("sort");
   sort(a, tmp, n);
   tareador_end_task("sort");
   tareador_OFF();

   int ok = 1;
   long check = 0, weighted = 0;
   for (int i = 0; i < n; i++) {
      if (i > 0 && a[i - 1] > a[i]) ok = 0;
      check += a[i];
      weighted += (long)a[i] * (i % 7);
   }
   ok &= check == sum;
   printf("mergesort: %d elements, cutoff %d, checksum %ld %s\n", n, cutoff, weighted,
          ok ? "ok" : "WRONG");
   free(a);
   free(tmp);
   return ok ? 0 : 1;
}
