/* taskdeps.c — the tool's task dependency test (tests/vg/tasks.sh): a program whose dependency
   graph is known exactly (tests/vg/expected/taskdeps.*.tasks). Instances are numbered in
   creation order; the main task is 1.

   read-after-write (always): fill(2) -> square(3) through `table`; square(3) -> sum(4) and
     sum(5) through the heap block (`total` is disabled, so the two sums are independent);
     inner(7) -> outer(6) through heap[0], which outer reads after creating inner (a wait in the
     middle of outer, not at its start); main(1) reads table[1] after clear(8) and `seen` after
     outer(6), so it waits for both at its end.
   write-after-read (--deps=raw+war): sum(4) -> inner(7) (heap[0]); square(3) -> clear(8)
     (table).
   write-after-write (--deps=raw+waw): square(3) -> inner(7) (heap[0]); fill(2) -> clear(8)
     (table); outer(6) -> main(1) (`seen`).
   Accesses to the stack frames of the annotation calls make no dependency. */
#include <stdlib.h>

#include "tareador.h"

#define N 64

int table[N];
static double total;
int seen;
int* heap; /* global: the compiler must reload what it points to after each annotation */

int main(void)
{
   int i;
   heap = malloc(N * sizeof(int));
   tareador_ON();

   tareador_start_task("fill");
   for (i = 0; i < N; i++) table[i] = i;
   tareador_end_task("fill");

   tareador_start_task("square");
   for (i = 0; i < N; i++) heap[i] = table[i] * table[i];
   tareador_end_task("square");

   tareador_disable_object(&total);
   tareador_start_task("sum");
   for (i = 0; i < N / 2; i++) total += heap[i];
   tareador_end_task("sum");
   tareador_start_task("sum");
   for (i = N / 2; i < N; i++) total += heap[i];
   tareador_end_task("sum");
   tareador_enable_object(&total);

   tareador_start_task("outer");
   tareador_start_task("inner");
   heap[0] = -1;
   tareador_end_task("inner");
   seen = heap[0];
   tareador_end_task("outer");

   tareador_start_task("clear");
   for (i = 0; i < N; i++) table[i] = 0;
   tareador_end_task("clear");

   seen += table[1];
   tareador_OFF();
   free(heap);
   return seen == -1 ? 0 : 1;
}
