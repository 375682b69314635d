/* tr_threadcomm.h — communication between threads at cache-line granularity (--thread-comm=yes):
   the relaxed definition of "Communication Detection in Shared Memory" (Algorithm 1). Memory is
   cut in blocks of 2^G bytes (--comm-granularity=G, 6: cache lines); each block remembers the
   two threads that accessed it last, and an access by another thread, or by one of them while
   the other is remembered, is a communication event between them. An event is *true* when the
   access touches a byte the other thread was the last to touch, else spatially false (only the
   block is shared). Written into the trace set as threadcomm.N.txt (docs/trace-format.md). */
#ifndef TR_THREADCOMM_H
#define TR_THREADCOMM_H

#include "pub_tool_basics.h"

/* --thread-comm and --comm-granularity: True if `arg` was one. */
Bool tr_threadcomm_option(const HChar* arg);
void tr_threadcomm_print_usage(void);
void tr_threadcomm_configure(void);
Bool tr_threadcomm_enabled(void);

/* Every load and store of every thread. */
VG_REGPARM(2) void tr_threadcomm_access(Addr a, UWord size);

/* Memory that dies takes its history along: a thread that gets the same addresses later (a
   deeper call, a block malloc hands out again, a cached thread stack) shares nothing with those
   that used them before. [a, a+n) is freed; a thread's stack pointer rose from `old_sp` to
   `new_sp` (`returned`: by a return); thread `tid` ends. */
void tr_threadcomm_forget(Addr a, SizeT n);
VG_REGPARM(3) void tr_threadcomm_stack_rises(Addr old_sp, Addr new_sp, UWord returned);
void tr_threadcomm_thread_ends(ThreadId tid);

/* Writes threadcomm.N.txt into the open trace set (once). */
void tr_threadcomm_write(void);

#endif
