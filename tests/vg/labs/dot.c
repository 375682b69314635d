/* dot.c — the dot product of the course labs, written as students write it: one task per
   element, each adding its product into a local variable of main through a pointer.
     dot disable   each task disables the accumulator around its update (the labs' lesson:
                   the tasks become independent)
     dot keep      the accumulator is left alone: the tasks chain through it
   Tasks init_A and init_B fill the vectors first. Prints the result and exits 0 when it is
   right. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tareador.h"

#define SIZE 16

double A[SIZE];

static double product(double a, double b)
{
   double c = a * b;
   for (int i = 0; i < 2000; i++) c += 1.0;
   return c;
}

static void dot_product(long n, const double* a, const double* b, double* acc, int disable)
{
   double partial;
   *acc = 0.0;
   for (long i = 0; i < n; i++) {
      tareador_start_task("dot_product");
      partial = product(a[i], b[i]);
      if (disable) tareador_disable_object(acc);
      *acc += partial;
      if (disable) tareador_enable_object(acc);
      tareador_end_task("dot_product");
   }
}

int main(int argc, char** argv)
{
   int disable = argc > 1 && strcmp(argv[1], "disable") == 0;
   double result;
   double* B = malloc(SIZE * sizeof(double));
   tareador_ON();
   tareador_start_task("init_A");
   for (int i = 0; i < SIZE; i++) A[i] = i;
   tareador_end_task("init_A");
   tareador_start_task("init_B");
   for (int i = 0; i < SIZE; i++) B[i] = 2 * i;
   tareador_end_task("init_B");
   dot_product(SIZE, A, B, &result, disable);
   tareador_OFF();
   /* sum of 2 i^2 + 2000 over i < 16 */
   printf("dot %s: %.1f\n", disable ? "disable" : "keep", result);
   free(B);
   return result == 2.0 * 1240 + 16 * 2000.0 ? 0 : 1;
}
