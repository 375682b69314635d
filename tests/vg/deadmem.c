/* deadmem.c WHAT — memory that dies and is used again by another thread (tests/vg/comm.sh):
     stack   a thread reads 64 bytes of the main thread's frame once; the frame returns and the
             main thread's later calls use those lines K times
     heap    a thread fills a 4 KB block and frees it; the next thread gets the same block from
             malloc and works on it K times
     cached  a thread works on its stack and ends; the next thread runs on the same stack (the
             C library caches it) and works there K times
     many    300 threads one after another, each adding to a global (past the 255th, the
             tool counts no access, and says so)
   Only the one read of `stack` is communication: what a dead frame, a freed block or an ended
   thread's stack held is nobody's once another thread gets the addresses. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K 10000

static const char* what;
static long results[2];

static void* read_line(void* p)
{
   volatile const char* c = p;
   long s = 0;
   for (int i = 0; i < 64; i++) s += c[i];
   return (void*)s;
}

/* The frame the helper thread reads. */
__attribute__((noinline)) static long share_frame(void)
{
   char frame[256];
   pthread_t t;
   void* r;
   memset(frame, 1, sizeof frame);
   pthread_create(&t, NULL, read_line, frame + 128);
   pthread_join(t, &r);
   return (long)r;
}

/* Touches its locals: the addresses share_frame's frame had. */
__attribute__((noinline)) static long use_frame(int i)
{
   volatile char frame[256];
   long s = 0;
   for (int j = 0; j < 256; j += 8) frame[j] = (char)(i + j);
   for (int j = 0; j < 256; j += 8) s += frame[j];
   return s;
}

static long total;

static void* add_one(void* arg)
{
   (void)arg;
   total++;
   return NULL;
}

static void* work(void* arg)
{
   int second = arg != NULL, reps = second ? K : 1;
   long s = 0;
   if (strcmp(what, "heap") == 0) {
      volatile long* block = malloc(4096);
      for (int r = 0; r < reps; r++)
         for (int i = 0; i < 512; i += 8) {
            block[i] = r + i;
            s += block[i];
         }
      free((void*)block);
   } else {
      for (int r = 0; r < reps; r++) s += use_frame(r);
   }
   results[second] = s;
   return NULL;
}

int main(int argc, char** argv)
{
   long s = 0;
   what = argc > 1 ? argv[1] : "stack";
   if (strcmp(what, "stack") == 0) {
      s = share_frame();
      for (int i = 0; i < K; i++) s += use_frame(i);
   } else if (strcmp(what, "many") == 0) {
      for (int k = 0; k < 300; k++) {
         pthread_t t;
         pthread_create(&t, NULL, add_one, NULL);
         pthread_join(t, NULL);
      }
      s = total;
   } else {
      for (long k = 0; k < 2; k++) { /* one after the other */
         pthread_t t;
         pthread_create(&t, NULL, work, (void*)k);
         pthread_join(t, NULL);
      }
      s = results[0] + results[1];
   }
   printf("deadmem %s: %ld\n", what, s);
   return 0;
}
