/* swapped — an image filter whose two buffers are swapped after a pass (tests/vg/emit_source.sh):
   blur tasks read img and write tmp, then img and tmp are swapped and a stats task reads img,
   the block allocated as tmp. Named by the variables their mallocs were assigned to, the blocks
   would be the other ones after the swap (the stats task would read `tmp`, the block the blur
   tasks read, and not wait for them): the annotated source must name them by stand-ins; the
   parallel build must print what the sequential one does. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

int main(void)
{
   int n = 512, nb = 4, rows = n / nb;
   double* img = malloc(n * n * sizeof(double));
   double* tmp = malloc(n * n * sizeof(double));
   double s = 0;
   for (int i = 0; i < n * n; i++) img[i] = tmp[i] = i % 9;
   tareador_ON();
   for (int b = 0; b < nb; b++) {
      tareador_start_task("blur");
      for (int i = b * rows; i < (b + 1) * rows; i++)
         for (int j = 1; j < n - 1; j++)
            tmp[i * n + j] = (img[i * n + j - 1] + img[i * n + j] + img[i * n + j + 1]) / 3;
      tareador_end_task("blur");
   }
   double* t = img; /* the result is in img now */
   img = tmp;
   tmp = t;
   tareador_start_task("stats");
   for (int i = 0; i < n * n; i++) s += img[i];
   tareador_end_task("stats");
   tareador_OFF();
   printf("sum %.3f\n", s);
   free(img);
   free(tmp);
   return 0;
}
