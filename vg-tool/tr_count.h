/* tr_count.h — counting guest instructions, per thread, cheaply. */
#ifndef TR_COUNT_H
#define TR_COUNT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Where the counter lives: once per superblock instrumented, before tr_count_add. */
void tr_count_use_layout(const VexGuestLayout* layout);
/* Appends to `sb` the statements that add `instructions` to the running thread's counter. */
void tr_count_add(IRSB* sb, ULong instructions);

/* Appends to `sb` the statements that read the running thread's counter plus `pending`
   instructions not added yet: the count at this point of the superblock. */
IRExpr* tr_count_now(IRSB* sb, ULong pending);

/* Guest instructions thread `tid` has executed so far. */
ULong tr_count_thread(ThreadId tid);
/* Thread `tid` is about to end: from now on its count is the one it has now. */
void tr_count_freeze(ThreadId tid);

#endif
