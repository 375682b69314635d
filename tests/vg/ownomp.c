/* A program that already has its OpenMP pragmas and keeps its Tareador calls, as course code
   often does (tests/vg/emit_source.sh; traced without -fopenmp, where the pragmas are ignored):
   the annotated source must not nest a second parallel region in the program's (it would run on
   one thread) nor wrap the program's task in another; the task it does not have yet gets its
   pragma. */
#include <stdio.h>
#include <tareador.h>

#define BLOCKS 8
#define SIZE 20000

double part[BLOCKS], total;

static void fill(int b)
{
   double s = 0;
   for (int i = 0; i < SIZE; i++) s += (i % (b + 3)) * 0.5;
   part[b] = s;
}

int main(void)
{
   tareador_ON();
#pragma omp parallel
#pragma omp single
   {
      for (int b = 0; b < BLOCKS; b++) {
         tareador_start_task("fill");
#pragma omp task firstprivate(b)
         fill(b);
         tareador_end_task("fill");
      }
#pragma omp taskwait
      tareador_start_task("total");
      /* (the test puts a task pragma of the program's own here) */
      for (int b = 0; b < BLOCKS; b++) total += part[b];
      tareador_end_task("total");
   }
   tareador_OFF();
   printf("total %.1f\n", total);
   return 0;
}
