/* tr_timing.c — libtareador-timing.so, for tareador-calibrate: preloaded into a native MPI run,
   it measures the part of each rank's run that a trace covers, from the end of MPI_Init to the
   start of MPI_Finalize, as the CPU time of the rank's thread (its computation, whether or not
   the rank had a core to itself: with more ranks than cores, wall time would count the others'
   turns too, and the replayer shares the cores again) and as wall time. It appends
   "CPU_SECONDS WALL_SECONDS" to the file named by TAREADOR_TIMING_FILE. No MPI header is needed:
   only the calls' signatures. The C bindings are MPI_*, the Fortran bindings of Open MPI and
   MPICH call PMPI_* directly: both are wrapped, and a rank is timed once. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct timespec started_cpu, started_wall;
static int started, finished;

static double seconds_since(clockid_t clock, const struct timespec* t0)
{
   struct timespec now;
   clock_gettime(clock, &now);
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

static void start(void)
{
   if (started++) return;
   clock_gettime(CLOCK_THREAD_CPUTIME_ID, &started_cpu);
   clock_gettime(CLOCK_MONOTONIC, &started_wall);
}

static void finish(void)
{
   const char* path = getenv("TAREADOR_TIMING_FILE");
   FILE* out;
   double cpu, wall;
   if (!started || finished++) return;
   cpu = seconds_since(CLOCK_THREAD_CPUTIME_ID, &started_cpu);
   wall = seconds_since(CLOCK_MONOTONIC, &started_wall);
   out = path ? fopen(path, "a") : NULL;
   if (out) {
      fprintf(out, "%.9f %.9f\n", cpu, wall);
      fclose(out);
   }
}

typedef int (*Init)(int*, char***);
typedef int (*InitThread)(int*, char***, int, int*);
typedef int (*Finalize)(void);

#define TIMED_INIT(NAME)                                                                 \
   int NAME(int* argc, char*** argv)                                                     \
   {                                                                                     \
      int result = ((Init)next(#NAME))(argc, argv);                                      \
      start();                                                                           \
      return result;                                                                     \
   }
#define TIMED_INIT_THREAD(NAME)                                                          \
   int NAME(int* argc, char*** argv, int required, int* provided)                        \
   {                                                                                     \
      int result = ((InitThread)next(#NAME))(argc, argv, required, provided);            \
      start();                                                                           \
      return result;                                                                     \
   }
#define TIMED_FINALIZE(NAME)                                                             \
   int NAME(void)                                                                        \
   {                                                                                     \
      finish();                                                                          \
      return ((Finalize)next(#NAME))();                                                  \
   }

TIMED_INIT(MPI_Init)
TIMED_INIT(PMPI_Init)
TIMED_INIT_THREAD(MPI_Init_thread)
TIMED_INIT_THREAD(PMPI_Init_thread)
TIMED_FINALIZE(MPI_Finalize)
TIMED_FINALIZE(PMPI_Finalize)
