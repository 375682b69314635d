/* frames — tasks that read buffers on the stack through pointers (tests/vg/emit_source.sh): an
   alloca block of the function that creates the task, and a local array of its caller passed
   by pointer; both functions return right after creating it. No copy of such a buffer can go
   into the task (firstprivate copies the pointer): the annotated source must wait for the task
   before the function that creates it returns, or the task reads a frame that is gone (other
   calls' data: the sums come out wrong). */
#include <alloca.h>
#include <stdio.h>

#include "tareador.h"

#define M 4096
#define CALLS 8

long total[2 * CALLS];

void sum(int k, const int* v)
{
   long s = 0;
   for (int i = 0; i < M; i++) s += v[i];
   total[k] = s;
}

void spawn_alloca(int k)
{
   int* v = alloca(M * sizeof(int));
   for (int i = 0; i < M; i++) v[i] = k * i;
   tareador_start_task("alloca");
   sum(k, v);
   tareador_end_task("alloca");
}

void make_task(int k, const int* v)
{
   tareador_start_task("caller");
   sum(k, v);
   tareador_end_task("caller");
}

void spawn_array(int k)
{
   int v[M];
   for (int i = 0; i < M; i++) v[i] = k * i + 1;
   make_task(k, v);
}

int main(void)
{
   tareador_ON();
   for (int k = 0; k < CALLS; k++) spawn_alloca(k);
   for (int k = CALLS; k < 2 * CALLS; k++) spawn_array(k);
   tareador_OFF();
   long s = 0;
   for (int k = 0; k < 2 * CALLS; k++) s += total[k] * (k + 1);
   printf("sum %ld\n", s);
   return 0;
}
