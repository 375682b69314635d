/* tr_timing.c — libtareador-timing.so, for tareador-calibrate: preloaded into a native MPI run,
   it measures the wall-clock time between the end of MPI_Init and the start of MPI_Finalize
   (the part of the run a trace covers) and appends it, in seconds, to the file named by
   TAREADOR_TIMING_FILE. No MPI header is needed: only the two calls' signatures. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct timespec started;

static double seconds_since(const struct timespec* t0)
{
   struct timespec now;
   clock_gettime(CLOCK_MONOTONIC, &now);
   return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void* next(const char* name)
{
   void* f = dlsym(RTLD_NEXT, name);
   if (!f) {
      fprintf(stderr, "libtareador-timing: %s not found\n", name);
      abort();
   }
   return f;
}

int MPI_Init(int* argc, char*** argv)
{
   int result = ((int (*)(int*, char***))next("MPI_Init"))(argc, argv);
   clock_gettime(CLOCK_MONOTONIC, &started);
   return result;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
   int result = ((int (*)(int*, char***, int, int*))next("MPI_Init_thread"))(argc, argv, required, provided);
   clock_gettime(CLOCK_MONOTONIC, &started);
   return result;
}

int MPI_Finalize(void)
{
   double elapsed = seconds_since(&started);
   const char* path = getenv("TAREADOR_TIMING_FILE");
   FILE* out = path ? fopen(path, "a") : NULL;
   if (out) {
      fprintf(out, "%.9f\n", elapsed);
      fclose(out);
   }
   return ((int (*)(void))next("MPI_Finalize"))();
}
