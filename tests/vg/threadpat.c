/* threadpat.c PATTERN — four pthreads sharing memory in a known pattern (tests/vg/comm.sh), each
   worker with its own 64-byte line of `lines`:
     ring     worker i writes its line, then reads worker (i+1)%4's K times
     all      worker i writes its line, then reads every other worker's K times
     master   worker 0 writes the lines of 1..3; each of them reads its line K times and writes
              a result into it, which worker 0 reads K times
     none     each worker reads and writes its own line only
     false    each worker writes its own 8 bytes of one shared line K times
   The workers wait for each other at a barrier: its own state is communication among all of
   them too, a few dozen events a pair, against the K of the pattern. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define WORKERS 4
#define K 10000

static struct {
   double v[8];
} __attribute__((aligned(64))) lines[WORKERS];
static double shared_line[8] __attribute__((aligned(64)));
static pthread_barrier_t barrier;
static const char* pattern;
static double sums[WORKERS];

static void write_line(int line)
{
   for (int j = 0; j < 8; j++) lines[line].v[j] = line + j;
}

static double read_line(int line)
{
   double sum = 0;
   for (int k = 0; k < K; k++) sum += ((volatile double*)lines[line].v)[k % 8];
   return sum;
}

static void* worker(void* arg)
{
   int me = (int)(long)arg;
   double sum = 0;
   if (strcmp(pattern, "ring") == 0 || strcmp(pattern, "all") == 0) {
      write_line(me);
      pthread_barrier_wait(&barrier);
      for (int other = 0; other < WORKERS; other++)
         if (other != me && (pattern[0] == 'a' || other == (me + 1) % WORKERS)) sum += read_line(other);
   } else if (strcmp(pattern, "master") == 0) {
      if (me == 0)
         for (int w = 1; w < WORKERS; w++) write_line(w);
      pthread_barrier_wait(&barrier);
      if (me != 0) lines[me].v[0] = read_line(me);
      pthread_barrier_wait(&barrier);
      if (me == 0)
         for (int w = 1; w < WORKERS; w++) sum += read_line(w);
   } else if (strcmp(pattern, "none") == 0) {
      write_line(me);
      sum = read_line(me);
   } else {
      for (int k = 0; k < K; k++) ((volatile double*)shared_line)[me] = k;
   }
   sums[me] = sum;
   return NULL;
}

int main(int argc, char** argv)
{
   pthread_t threads[WORKERS];
   pattern = argc > 1 ? argv[1] : "ring";
   pthread_barrier_init(&barrier, NULL, WORKERS);
   for (long i = 0; i < WORKERS; i++) pthread_create(&threads[i], NULL, worker, (void*)i);
   for (int i = 0; i < WORKERS; i++) pthread_join(threads[i], NULL);
   printf("%s %.0f\n", pattern, sums[0] + sums[1] + sums[2] + sums[3]);
   return 0;
}
