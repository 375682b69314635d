/* libc.c — tasks that read constants (a table, floating literals) and call the C library
   (sin, memcpy, qsort, printf) on the program's arrays: their porting hints name the program's
   objects only (in, out, the copy block), and the library's own state makes no dependency. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tareador.h"

#define N 4096

static double in[N], out[N];
static const double weights[4] = {0.1, 0.2, 0.3, 0.4};

static int compare(const void* a, const void* b)
{
   double x = *(const double*)a, y = *(const double*)b;
   return (x > y) - (x < y);
}

int main(void)
{
   double* copy = malloc(N * sizeof(double));
   for (int i = 0; i < N; i++) in[i] = (i * 37) % 101;
   tareador_ON();
   for (int b = 0; b < 4; b++) {
      tareador_start_task("scale");
      for (int i = b * N / 4; i < (b + 1) * N / 4; i++) out[i] = sin(in[i]) * weights[b] + 0.5;
      memcpy(copy + b * N / 4, out + b * N / 4, N / 4 * sizeof(double));
      qsort(copy + b * N / 4, N / 4, sizeof(double), compare);
      printf("block %d: smallest %.3f\n", b, copy[b * N / 4]);
      tareador_end_task("scale");
   }
   tareador_OFF();
   free(copy);
   return 0;
}
