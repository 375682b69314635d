/* ompring.c — the nearest-neighbour ring of threadpat.c with OpenMP (tests/vg/comm.sh): four
   threads each write their 64-byte line, pass one barrier, and read the next thread's line K
   times. Run with OMP_WAIT_POLICY=passive: a spinning barrier would be communication too. */
#include <omp.h>
#include <stdio.h>

#define THREADS 4
#define K 10000

static struct {
   double v[8];
} __attribute__((aligned(64))) lines[THREADS];

int main(void)
{
   double total = 0;
#pragma omp parallel num_threads(THREADS) reduction(+ : total)
   {
      int me = omp_get_thread_num(), next = (me + 1) % THREADS;
      for (int j = 0; j < 8; j++) lines[me].v[j] = me + j;
#pragma omp barrier
      for (int k = 0; k < K; k++) total += ((volatile double*)lines[next].v)[k % 8];
   }
   printf("%.0f\n", total);
   return 0;
}
