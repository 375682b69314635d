/* tr_count.h — counting guest instructions, per thread, cheaply. */
#ifndef TR_COUNT_H
#define TR_COUNT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* After the command line is read (the number of threads is known then). */
void tr_count_init(void);

/* Adds instruction counting to a superblock: one counter update per exit, not per instruction. */
IRSB* tr_count_instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout* layout,
                          const VexGuestExtents* vge, const VexArchInfo* archinfo_host,
                          IRType gWordTy, IRType hWordTy);

/* Called when thread `tid` starts running client code: what ran since belongs to the last one. */
void tr_count_switch(ThreadId tid, ULong blocks_dispatched);

/* Guest instructions thread `tid` has executed so far. */
ULong tr_count_thread(ThreadId tid);

#endif
