/* tr_threads.c — thread creation numbers. */

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "tr_threads.h"

UInt tr_thread_numbers[TR_THREADS_CACHED] = {[1] = 1};
static UInt created = 1;

/* Valgrind reports the main thread's creation too: it stays 1. */
static void thread_created(ThreadId parent, ThreadId child)
{
   if (child < TR_THREADS_CACHED && child != 1) tr_thread_numbers[child] = ++created;
}

void tr_threads_pre_clo_init(void) { VG_(track_pre_thread_ll_create)(thread_created); }
