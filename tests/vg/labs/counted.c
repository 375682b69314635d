/* A block whose first element counts its uses and whose others hold the data, as a course's
   statistics code keeps them. Each "produce" task fills a part of the data; each "consume" task
   bumps the counter, disabled around the update as the labs teach for an accumulator, then
   sums the part its producer filled with the block enabled again: it must wait for that
   producer (disabling the counter disables the whole block, but its bytes keep their writers).
   With "stale", the student also disables the element before the part (an element names all of
   its block: a warning says so) and a "total" counter is disabled and never enabled again (a
   warning names it when tracing ends). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tareador.h"

#define PARTS 4
#define PART 32

double total;
double sums[PARTS];

int main(int argc, char** argv)
{
   int stale = argc > 1 && strcmp(argv[1], "stale") == 0;
   double* block = malloc((1 + PARTS * PART) * sizeof *block);
   double* data = block + 1;
   block[0] = 0;
   tareador_ON();
   for (int p = 0; p < PARTS; p++) {
      tareador_start_task("produce");
      for (int i = 0; i < PART; i++) data[p * PART + i] = p + i * 0.5;
      tareador_end_task("produce");
   }
   if (stale) tareador_disable_object(&total);
   for (int p = 0; p < PARTS; p++) {
      tareador_start_task("consume");
      tareador_disable_object(stale ? &data[p * PART - 1] : block);
      block[0] += 1;
      tareador_enable_object(block);
      double s = 0;
      for (int i = 0; i < PART; i++) s += data[p * PART + i];
      sums[p] = s;
      total += s;
      tareador_end_task("consume");
   }
   tareador_OFF();
   printf("%g uses, total %g\n", block[0], total);
   free(block);
   return 0;
}
