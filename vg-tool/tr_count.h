/* tr_count.h — counting guest instructions, per thread, cheaply. */
#ifndef TR_COUNT_H
#define TR_COUNT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Adds instruction counting to a superblock: one counter update per exit, not per instruction. */
IRSB* tr_count_instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout* layout,
                          const VexGuestExtents* vge, const VexArchInfo* archinfo_host,
                          IRType gWordTy, IRType hWordTy);

/* Guest instructions thread `tid` has executed so far. */
ULong tr_count_thread(ThreadId tid);

#endif
