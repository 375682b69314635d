/* The allocator's own uses of the program's blocks. realloc copies a block a task filled: the
   code that grows it reads what the task wrote (it waits for it), and the task that sums the
   grown block comes after. Freeing a block is its last use: the task that frees it writes it,
   after the task that reads it (a write-after-read, with --deps=raw+war+waw). */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

double result;

int main(int argc, char** argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 1000;
   double* values = malloc(n * sizeof *values);
   tareador_ON();
   tareador_start_task("fill");
   for (int k = 0; k < n; k++) values[k] = k * 0.5;
   tareador_end_task("fill");
   values = realloc(values, 2 * n * sizeof *values);
   tareador_start_task("sum");
   double s = 0;
   for (int k = 0; k < n; k++) s += values[k];
   result = s;
   tareador_end_task("sum");
   tareador_start_task("release");
   free(values);
   tareador_end_task("release");
   tareador_OFF();
   printf("%g\n", result);
   return 0;
}
