/* A stand-in (two blocks allocated on one line) in a file that includes tareador.h only in the
   traced build (built with -DTRACE; tests/vg/emit_source.sh), as course code does: the OpenMP
   build, without TRACE, must declare the stand-in all the same (after the #endif). */
#include <stdio.h>
#include <stdlib.h>
#ifdef TRACE
#include <tareador.h>
#endif

static void fill(int *v, int from, int to)
{
   for (int i = from; i < to; i++) v[i] = i * i;
}

int main(void)
{
   int *a = malloc(64 * sizeof(int)), *b = malloc(64 * sizeof(int)); /* one line: a stand-in */
#ifdef TRACE
   tareador_ON();
#endif
   for (int k = 0; k < 4; k++) {
#ifdef TRACE
      tareador_start_task("fill");
#endif
      fill(k % 2 ? a : b, 16 * k, 16 * k + 16);
#ifdef TRACE
      tareador_end_task("fill");
#endif
   }
#ifdef TRACE
   tareador_OFF();
#endif
   long s = 0;
   for (int i = 0; i < 64; i++) s += a[i] + 2 * b[i];
   printf("%ld\n", s);
   free(a);
   free(b);
   return 0;
}
