/* tr_count.c — instruction counting.

   Every superblock adds the number of guest instructions it executed to a counter: before each
   side exit (what ran up to it) and at its end (the rest); tr_instrument.c places the updates.
   That is exact and costs one update per exit, taken or not, instead of one per instruction.

   The counter lives in the thread's first shadow guest state, which this tool does not
   otherwise use: it is per thread for free (no bookkeeping at thread switches) and is reached
   from the guest state pointer, without an address constant. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "tr_count.h"

/* Offset of the counter in the guest state: the first word of shadow area 1, which starts where
   the guest state ends. */
static Int counter_offset = -1;

void tr_count_use_layout(const VexGuestLayout* layout)
{
   tl_assert(counter_offset < 0 || counter_offset == layout->total_sizeB);
   counter_offset = layout->total_sizeB;
}

IRExpr* tr_count_now(IRSB* sb, ULong pending)
{
   IRTemp counter = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp now = newIRTemp(sb->tyenv, Ity_I64);
   addStmtToIRSB(sb, IRStmt_WrTmp(counter, IRExpr_Get(counter_offset, Ity_I64)));
   addStmtToIRSB(sb, IRStmt_WrTmp(now, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(counter),
                                                    IRExpr_Const(IRConst_U64(pending)))));
   return IRExpr_RdTmp(now);
}

void tr_count_add(IRSB* sb, ULong instructions)
{
   IRTemp old = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp sum = newIRTemp(sb->tyenv, Ity_I64);
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Get(counter_offset, Ity_I64)));
   addStmtToIRSB(sb, IRStmt_WrTmp(sum, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
                                                    IRExpr_Const(IRConst_U64(instructions)))));
   addStmtToIRSB(sb, IRStmt_Put(counter_offset, IRExpr_RdTmp(sum)));
}

/* A thread about to exit keeps its last count: the tool's end comes after the thread is gone. */
static ThreadId frozen_tid = VG_INVALID_THREADID;
static ULong frozen_count;

void tr_count_freeze(ThreadId tid)
{
   frozen_count = tr_count_thread(tid);
   frozen_tid = tid;
}

ULong tr_count_thread(ThreadId tid)
{
   ULong count = 0;
   if (tid == frozen_tid) return frozen_count;
   VG_(get_shadow_regs_area)(tid, (UChar*)&count, 1, 0, sizeof count);
   return count;
}
