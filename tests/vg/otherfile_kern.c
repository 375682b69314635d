/* The kernel of tests/vg/otherfile_main.c: the tasks' update of the shared histogram. */
#include <tareador.h>

void histo_block(const unsigned char *img, int from, int to, unsigned *hist)
{
   for (int i = from; i < to; i++) {
      tareador_disable_object(hist);
      hist[img[i] >> 4]++;
      tareador_enable_object(hist);
   }
}
