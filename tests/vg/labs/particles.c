/* Particles allocated one by one, a position block and a force block each, side by side in the
   heap. The 2,000 force blocks are disabled (in reverse order) while tasks accumulate into them;
   the position blocks between them are not, and carry the dependencies of the tasks that read
   them on the tasks that moved them. Every access looks for the disabled block it touches among
   thousands. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

#define N 2000
#define MOVES 4

int main(void)
{
   static double *x[N], *f[N];
   for (int i = 0; i < N; i++) {
      x[i] = malloc(sizeof *x[i]);
      f[i] = malloc(sizeof *f[i]);
      *f[i] = 0;
   }
   tareador_ON();
   for (int i = N - 1; i >= 0; i--) tareador_disable_object(f[i]);
   for (int b = 0; b < MOVES; b++) {
      tareador_start_task("move");
      for (int i = b; i < N; i += MOVES) *x[i] = i * 0.5;
      tareador_end_task("move");
   }
   /* Each reads the positions of every 50th particle (moved by the first and third move). */
   for (int b = 0; b < MOVES; b++) {
      tareador_start_task("forces");
      for (int i = b; i < N; i += MOVES)
         for (int j = 0; j < N; j += 50) {
            *f[i] += *x[j] - *x[i];
            *f[j] -= 1e-9;
         }
      tareador_end_task("forces");
   }
   for (int i = 0; i < N; i++) tareador_enable_object(f[i]);
   tareador_OFF();
   double s = 0;
   for (int i = 0; i < N; i++) s += *f[i];
   printf("%g\n", s);
   return 0;
}
