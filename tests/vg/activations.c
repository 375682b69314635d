/* activations — tasks that each write their own element of a local array of the function that
   creates them, a function that runs several times (tests/vg/emit_source.sh): sum4, called by
   each outer task, and the recursive sum, whose calls add what their child tasks wrote. Each
   activation's array is an object of its own: the tasks of one activation use disjoint
   elements of it, so the annotated source shares the array without depend clauses (one
   depend(out: part) would serialise them) and waits before the sum. Usage: activations DEPTH */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

long work(long k)
{
   long s = 0;
   for (long i = 0; i < 1000 * (k % 3 + 1); i++) s += (i ^ k) % 7;
   return s;
}

void sum4(long base, long* out)
{
   long part[4];
   int i;
   for (i = 0; i < 4; i++) {
      tareador_start_task("leaf");
      part[i] = work(base + i);
      tareador_end_task("leaf");
   }
   long s = 0;
   for (i = 0; i < 4; i++) s += part[i] * (i + 1);
   *out = s;
}

void rec(int d, long k, long* out)
{
   long part[2];
   int i;
   if (d == 0) {
      *out = work(k);
      return;
   }
   for (i = 0; i < 2; i++) {
      tareador_start_task("rec");
      rec(d - 1, 2 * k + i, &part[i]);
      tareador_end_task("rec");
   }
   *out = part[0] + 3 * part[1];
}

int main(int argc, char* argv[])
{
   long res[4], total = 0, tree = 0;
   int depth = argc > 1 ? atoi(argv[1]) : 2;
   int k;
   tareador_ON();
   for (k = 0; k < 4; k++) {
      tareador_start_task("outer");
      sum4(4 * k, &res[k]);
      tareador_end_task("outer");
   }
   rec(depth, 1, &tree);
   tareador_OFF();
   for (k = 0; k < 4; k++) total += res[k] * (k + 1);
   printf("total %ld tree %ld\n", total, tree);
   return 0;
}
