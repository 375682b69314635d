/* tasklib.c — a code that declares the Tareador API itself and links -ltareador (as course codes
   written for the original Tareador do): a producer and a consumer task, one dependency. */
#include <stdio.h>

void tareador_ON(void);
void tareador_OFF(void);
void tareador_start_task(const char* name);
void tareador_end_task(const char* name);

static int data[16];

int main(void)
{
   int i, sum = 0;
   tareador_ON();
   tareador_start_task("produce");
   for (i = 0; i < 16; i++) data[i] = i;
   tareador_end_task("produce");
   tareador_start_task("consume");
   for (i = 0; i < 16; i++) sum += data[i];
   tareador_end_task("consume");
   tareador_OFF();
   printf("%d\n", sum);
   return sum == 120 ? 0 : 1;
}
