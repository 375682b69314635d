/* tr_threads.c — thread creation numbers. */

#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "tr_count.h"
#include "tr_threadcomm.h"
#include "tr_threads.h"

UInt tr_thread_numbers[TR_THREADS_CACHED] = {[1] = 1};
static UInt created = 1;

static Bool library_thread[TR_THREADS_CACHED];  /* per valgrind id, while it lives */
/* A new thread's counter starts from its creator's (the guest state is copied): what it had
   then is none of its own. */
static ULong count_at_start[TR_THREADS_CACHED];
/* Per valgrind id: inside an MPI call (since `entered_at`), and the instructions of its calls
   that ended (a worker thread polling in MPI_Sendrecv computes nothing of the program's). */
static Bool in_call[TR_THREADS_CACHED];
static ULong entered_at[TR_THREADS_CACHED], in_calls[TR_THREADS_CACHED];

void tr_threads_in_library(ThreadId tid, Bool inside)
{
   if (tid >= TR_THREADS_CACHED || in_call[tid] == inside) return;
   if (inside) entered_at[tid] = tr_count_thread(tid);
   else in_calls[tid] += tr_count_thread(tid) - entered_at[tid];
   in_call[tid] = inside;
}

/* Valgrind reports the main thread's creation too: it stays 1. */
static void thread_created(ThreadId parent, ThreadId child)
{
   if (child < TR_THREADS_CACHED && child != 1) tr_thread_numbers[child] = ++created;
   if (child >= TR_THREADS_CACHED) return;
   library_thread[child] = parent < TR_THREADS_CACHED && in_call[parent];
   count_at_start[child] = parent != VG_INVALID_THREADID ? tr_count_thread(parent) : 0;
   in_call[child] = False;
   in_calls[child] = 0;
}

/* The instructions thread `tid` executed itself, outside MPI calls. */
static ULong own_instructions(ThreadId tid)
{
   ULong count = tr_count_thread(tid), start = 0;
   if (tid < TR_THREADS_CACHED) {
      start = count_at_start[tid] + in_calls[tid];
      if (in_call[tid]) count = entered_at[tid];
   }
   return count > start ? count - start : 0;
}

Bool tr_threads_of_program(ThreadId tid)
{
   return tid >= TR_THREADS_CACHED || !library_thread[tid];
}

Bool tr_threads_computes(ThreadId tid)
{
   return tr_threads_of_program(tid) && !(tid < TR_THREADS_CACHED && in_call[tid]);
}

/* The instructions of the threads that ended, per valgrind id (a later thread may reuse one:
   they add up); past the ids remembered, together. */
static ULong ended_instructions[TR_THREADS_CACHED], ended_beyond;

static void thread_exiting(ThreadId tid)
{
   tr_threadcomm_thread_ends(tid);
   if (!tr_threads_of_program(tid)) return;
   if (tid < TR_THREADS_CACHED) ended_instructions[tid] += own_instructions(tid);
   else ended_beyond += own_instructions(tid);
}

void tr_threads_pre_clo_init(void)
{
   VG_(track_pre_thread_ll_create)(thread_created);
   VG_(track_pre_thread_ll_exit)(thread_exiting);
}

ULong tr_threads_instructions_except(ThreadId tid)
{
   ULong sum = ended_beyond;
   ThreadId other;
   Addr low, high;
   for (other = 0; other < TR_THREADS_CACHED; other++)
      if (other != tid) sum += ended_instructions[other];
   VG_(thread_stack_reset_iter)(&other);
   while (VG_(thread_stack_next)(&other, &low, &high))
      if (other != tid && tr_threads_of_program(other)) sum += own_instructions(other);
   return sum;
}
