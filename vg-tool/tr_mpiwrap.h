/* tr_mpiwrap.h — what the MPI wrappers (tr_mpiwrap.c) and the opaque calls' wrappers of the
   preload library (tr_mpiopaque.c) share: the calls' arguments, and the count of MPI calls under
   way on each thread, of which only the outermost is traced. */
#ifndef TR_MPIWRAP_H
#define TR_MPIWRAP_H

typedef unsigned long UW;

/* Every wrapper takes and passes 12 words (TR_MAX_ARGS of tr_dialect.h). */
#define PARAMETERS                                                                          \
   UW a1, UW a2, UW a3, UW a4, UW a5, UW a6, UW a7, UW a8, UW a9, UW a10, UW a11, UW a12
#define ARGUMENTS a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12

/* An opaque MPI call starts: when it is the thread's outermost, the tool hears of it. */
void tr_mpi_call_begins(const char* name);
/* It ends: when it was the outermost, it is recorded as a call of `name`; the first time
   (`*seen` unset), a call that communicates in a way the trace does not model (a non-blocking
   or persistent collective, one-sided, a matched receive, a large-count form) is a warning. */
void tr_mpi_call_ends(const char* name, int* seen);

#endif
