/* multisort — the recursive "multisort" of parallelism courses: a sort task splits its range
   in four quarters, sorts each in a nested "multisort" task, then merges them pairwise and
   merges the two halves, each merge a "merge" task that splits itself into two nested "merge"
   tasks until its length is small. Leaves sort with insertion sort and merge sequentially.
   The data and the scratch buffer are two heap objects; every level merges from one into the
   other. Usage: multisort [N [MIN_SORT [MIN_MERGE]]] (default 1024 64 64: 133 instances, the
   size of a course's graph that a flat layout draws as a 7680 x 287 strip). Prints "ok".

   Expected graph (defaults): a sort of n elements is a leaf when n < 4 MIN_SORT; a merge of
   length l splits while l >= 2 MIN_MERGE. multisort(1024) creates 4 multisort(256), each
   creating 4 leaf multisort(64): 20 "multisort" instances. Each multisort(256) merges two
   pairs of quarters (length 128: 1 + 2 instances each) and the halves (length 256: 1 + 2 + 4):
   13 merges, 52 for the four; multisort(1024) merges 512 + 512 + 1024 (15 + 15 + 31): 61. In
   all 20 + 52 + 61 = 133 instances. Dependencies run from the leaf sorts to the leaf merges
   that read their quarters, from those to the leaf merges of the next level that read what
   they wrote (each leaf merge reads one contiguous piece of each input half, written by one or
   two earlier leaf merges), and so on up to the 16 leaf merges of the whole array. Inner merge
   and multisort instances only create tasks and touch no data: no edges through the arrays (the
   tool links five pairs of inner merges through 8 bytes of a stack slot of the code that
   creates them, `tmp`; 204 edges in all). */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

static int min_sort = 64, min_merge = 64;

static void basicsort(int* a, int n)
{
   for (int i = 1; i < n; i++) {
      int x = a[i], j = i;
      for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
      a[j] = x;
   }
}

/* Elements of the sorted sequences left[0..n) and right[0..n) that land at positions
   [start, start + length) of the merged sequence, written to result[start..). */
static void basicmerge(int n, const int* left, const int* right, int* result, int start,
                       int length)
{
   /* The first `start` outputs take i from left and start - i from right: find i. */
   int lo = start > n ? start - n : 0, hi = start < n ? start : n;
   while (lo < hi) {
      int i = (lo + hi) / 2;
      if (left[i] <= right[start - i - 1])
         lo = i + 1;
      else
         hi = i;
   }
   int i = lo, j = start - lo;
   for (int k = start; k < start + length; k++)
      result[k] = j >= n || (i < n && left[i] <= right[j]) ? left[i++] : right[j++];
}

static void merge(int n, const int* left, const int* right, int* result, int start, int length)
{
   if (length < 2 * min_merge) {
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

static void multisort(int n, int* data, int* tmp)
{
   if (n < 4 * min_sort) {
      basicsort(data, n);
      return;
   }
   int q = n / 4;
   for (int i = 0; i < 4; i++) {
      tareador_start_task("multisort");
      multisort(q, data + i * q, tmp + i * q);
      tareador_end_task("multisort");
   }
   for (int i = 0; i < 2; i++) {
      tareador_start_task("merge");
      merge(q, data + 2 * i * q, data + (2 * i + 1) * q, tmp + 2 * i * q, 0, 2 * q);
      tareador_end_task("merge");
   }
   tareador_start_task("merge");
   merge(2 * q, tmp, tmp + 2 * q, data, 0, n);
   tareador_end_task("merge");
}

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 1024;
   min_sort = argc > 2 ? atoi(argv[2]) : 64;
   min_merge = argc > 3 ? atoi(argv[3]) : 64;
   if (n < 4 || n % 4 != 0 || min_sort < 1 || min_merge < 1) {
      fprintf(stderr, "usage: multisort [N [MIN_SORT [MIN_MERGE]]], N a multiple of 4\n");
      return 2;
   }
   int* data = malloc(sizeof(int) * n);
   int* tmp = malloc(sizeof(int) * n);
   unsigned seed = 4242;
   long sum = 0;
   for (int i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      data[i] = (int)((seed >> 8) % 100000);
      sum += data[i];
   }

   tareador_ON();
   multisort(n, data, tmp);
   tareador_OFF();

   int ok = 1;
   long check = 0;
   for (int i = 0; i < n; i++) {
      if (i > 0 && data[i - 1] > data[i]) ok = 0;
      check += data[i];
   }
   ok &= check == sum;
   printf("multisort: %d elements %s\n", n, ok ? "ok" : "WRONG");
   free(data);
   free(tmp);
   return ok ? 0 : 1;
}
