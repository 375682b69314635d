/* A histogram whose tasks (here) call histo_block in another file (otherfile_kern.c), which
   updates the shared histogram between tareador_disable_object and tareador_enable_object:
   the trace names this file only, yet the update there must become a critical section. */
#include <stdio.h>
#include <stdlib.h>
#include <tareador.h>

void histo_block(const unsigned char *img, int from, int to, unsigned *hist);

int main(void)
{
   int n = 1 << 16, blocks = 8;
   unsigned char *img = malloc(n);
   unsigned hist[16] = {0};
   for (int i = 0; i < n; i++) img[i] = (unsigned char)((i * 2654435761u) >> 13);
   tareador_ON();
   for (int b = 0; b < blocks; b++) {
      tareador_start_task("histo");
      histo_block(img, b * (n / blocks), (b + 1) * (n / blocks), hist);
      tareador_end_task("histo");
   }
   tareador_OFF();
   for (int i = 0; i < 16; i++) printf("%u ", hist[i]);
   printf("\n");
   free(img);
   return 0;
}
