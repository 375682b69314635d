/* tr_count.c — instruction counting.

   Every superblock adds the number of guest instructions it executed to one global counter:
   before each side exit (what ran up to it) and at its end (the rest). That is exact and costs a
   load, an add and a store per exit taken or not, instead of one per instruction.

   Valgrind runs one client thread at a time, so per-thread counts come from charging what the
   global counter gained between two thread switches to the thread that was running. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "tr_count.h"

static ULong global_count;             /* updated by the instrumented code */
static ULong count_at_switch;          /* global_count when `running` started */
static ThreadId running = VG_INVALID_THREADID;
static ULong* thread_count;            /* VG_N_THREADS of them */

void tr_count_init(void)
{
   thread_count = VG_(calloc)("tareador.count", VG_N_THREADS, sizeof(ULong));
}

static void add_count(IRSB* sb, ULong instructions)
{
   IRTemp old = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp sum = newIRTemp(sb->tyenv, Ity_I64);
   IRExpr* where = mkIRExpr_HWord((HWord)&global_count);
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, where)));
   addStmtToIRSB(sb, IRStmt_WrTmp(sum, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
                                                    IRExpr_Const(IRConst_U64(instructions)))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, where, IRExpr_RdTmp(sum)));
}

IRSB* tr_count_instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout* layout,
                          const VexGuestExtents* vge, const VexArchInfo* archinfo_host,
                          IRType gWordTy, IRType hWordTy)
{
   IRSB* sb_out = deepCopyIRSBExceptStmts(sb_in);
   ULong pending = 0; /* instructions seen since the last update */
   Int i;
   for (i = 0; i < sb_in->stmts_used; i++) {
      IRStmt* st = sb_in->stmts[i];
      if (st == NULL) continue;
      if (st->tag == Ist_IMark) pending++;
      if (st->tag == Ist_Exit && pending > 0) {
         add_count(sb_out, pending);
         pending = 0;
      }
      addStmtToIRSB(sb_out, st);
   }
   if (pending > 0) add_count(sb_out, pending);
   return sb_out;
}

void tr_count_switch(ThreadId tid, ULong blocks_dispatched)
{
   if (running != VG_INVALID_THREADID) thread_count[running] += global_count - count_at_switch;
   count_at_switch = global_count;
   running = tid;
}

ULong tr_count_thread(ThreadId tid)
{
   tl_assert(tid > 0 && tid < VG_N_THREADS);
   if (tid == running) return thread_count[tid] + (global_count - count_at_switch);
   return thread_count[tid];
}
