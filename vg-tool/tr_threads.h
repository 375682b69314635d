/* tr_threads.h — the threads of the run numbered in creation order (1: the main thread), for the
   communication recordings: Valgrind reuses the id of a thread that ended for the next one, and
   two threads of a program are two threads of its communication. */
#ifndef TR_THREADS_H
#define TR_THREADS_H

#include "pub_tool_basics.h"

#define TR_THREADS_CACHED 512  /* Valgrind thread ids remembered (VG_N_THREADS is at most 500) */

extern UInt tr_thread_numbers[TR_THREADS_CACHED];

/* Registers the tool's hooks on thread creation and exit. */
void tr_threads_pre_clo_init(void);

/* Thread `tid` enters (`inside`) or leaves an MPI call: the threads it creates meanwhile are
   the library's own (progress threads), not the program's, and what it executes there is the
   library's, not the program's computation. */
void tr_threads_in_library(ThreadId tid, Bool inside);
/* Whether thread `tid` is one of the program's threads (not one the MPI library started inside
   a call: a progress thread), and whether it runs the program's computation now (outside MPI
   calls). */
Bool tr_threads_of_program(ThreadId tid);
Bool tr_threads_computes(ThreadId tid);
/* Guest instructions executed so far by the program's threads other than `tid` (those that
   ended and those alive), outside MPI calls. */
ULong tr_threads_instructions_except(ThreadId tid);

/* The creation number of the thread `tid` runs now. */
static inline UInt tr_thread_number(ThreadId tid)
{
   return tid < TR_THREADS_CACHED && tr_thread_numbers[tid] ? tr_thread_numbers[tid] : tid;
}

#endif
