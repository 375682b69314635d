/* searches — recursive searches whose tasks set a flag, a local of the function that creates
   them, disabled as course labs disable such flags (tareador_disable_object)
   (tests/vg/emit_source.sh): one function returns its flag, another tests its flag after the
   loop that creates its tasks. Neither is the function of the parallel region: the annotated
   source must share the flag (copied into the tasks, their writes would be lost) and wait for
   the tasks before the function reads it or returns (else they would write a frame that is
   gone); the parallel build must print what the sequential one does. */
#include <stdio.h>

#include "tareador.h"

#define DEPTH 8

/* Whether a path from here down to DEPTH spells the code `target`, one bit per level. */
int search(int level, int code, int target)
{
   int found = 0;
   int bit;
   if (level == DEPTH) return code == target;
   for (bit = 0; bit < 2; bit++) {
      tareador_start_task("search");
      tareador_disable_object(&found);
      if (search(level + 1, code * 2 + bit, target)) found = 1;
      tareador_enable_object(&found);
      tareador_end_task("search");
   }
   return found;
}

int marked[4];

/* Marks the quarter of the codes that holds `target`. */
void mark(int quarter, int target)
{
   int found = 0;
   int half;
   for (half = 0; half < 2; half++) {
      tareador_start_task("half");
      tareador_disable_object(&found);
      if (search(3, quarter * 2 + half, target)) found = 1;
      tareador_enable_object(&found);
      tareador_end_task("half");
   }
   if (found) marked[quarter] = 1;
}

int main(void)
{
   int found, quarter;
   tareador_ON();
   found = search(0, 0, 77);
   for (quarter = 0; quarter < 4; quarter++) mark(quarter, 200);
   tareador_OFF();
   printf("found %d, marked %d %d %d %d\n", found, marked[0], marked[1], marked[2], marked[3]);
   return 0;
}
