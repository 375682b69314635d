/* commflow.c [PASSES] — a program whose producer->consumer flows are known (tests/vg/comm.sh;
   bench/comm.sh runs it longer): produce writes N doubles, transform reads each once and writes
   N others, consume reads those PASSES times (4). At function granularity, exactly: produce ->
   transform 8N bytes in N loads, transform -> consume 8 N PASSES bytes in N PASSES loads. Built
   -O1: one scalar load per element. */
#include <stdio.h>
#include <stdlib.h>

#define N 100000

static double a[N], b[N];

__attribute__((noinline)) static void produce(void)
{
   for (int i = 0; i < N; i++) a[i] = i;
}

__attribute__((noinline)) static void transform(void)
{
   for (int i = 0; i < N; i++) b[i] = 2 * a[i];
}

__attribute__((noinline)) static double consume(int passes)
{
   double sum = 0;
   for (int p = 0; p < passes; p++)
      for (int i = 0; i < N; i++) sum += b[i];
   return sum;
}

int main(int argc, char** argv)
{
   produce();
   transform();
   printf("%.0f\n", consume(argc > 1 ? atoi(argv[1]) : 4));
   return 0;
}
