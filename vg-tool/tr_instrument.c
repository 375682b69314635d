/* tr_instrument.c — what the tool adds to each superblock: the instruction counter updates
   (always), and before every load and store (plain, guarded, atomic (CAS, LL/SC) and the
   memory effects of dirty helpers) a call to the task shadow memory while tasks are traced, one
   to the overlap study's with --overlap=yes, and to the communication recordings (--comm,
   --thread-comm). */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"
#include "libvex_guest_amd64.h"

#include "tr_comm.h"
#include "tr_count.h"
#include "tr_instrument.h"
#include "tr_memory.h"
#include "tr_overlap.h"
#include "tr_potential.h"
#include "tr_threadcomm.h"

/* The helpers one analysis calls before loads and stores, and their third argument: none, the
   thread's instruction count at the access, or the site of the access (tr_comm_site). */
typedef enum { ARG_NONE, ARG_COUNT, ARG_SITE } ThirdArg;
typedef struct {
   const HChar* load_name;
   void* load;
   const HChar* store_name;
   void* store;
   ThirdArg third;
   /* If any: statements before an access of `size` bytes at `addr`, and when to call (NULL:
      always). */
   IRExpr* (*guard)(IRSB* sb, Bool store, IRExpr* addr, Int size);
} Helpers;

IRExpr* tr_ir_op(IRSB* sb, IRType type, IROp operation, IRExpr* a, IRExpr* b)
{
   IRTemp t = newIRTemp(sb->tyenv, type);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Binop(operation, a, b)));
   return IRExpr_RdTmp(t);
}

/* A new temporary holding "not `condition`". */
static IRExpr* negation(IRSB* sb, IRExpr* condition)
{
   IRTemp t = newIRTemp(sb->tyenv, Ity_I1);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Unop(Iop_Not1, condition)));
   return IRExpr_RdTmp(t);
}

/* The temporaries of the superblock being instrumented that hold the stack or frame pointer,
   or that plus or minus something (an offset, an index): an address made of them is a local
   variable's. */
static Bool* stack_temps;
static UInt max_stack_temps;

static Bool from_stack(const IRExpr* e)
{
   return e->tag == Iex_RdTmp && e->Iex.RdTmp.tmp < max_stack_temps &&
          stack_temps[e->Iex.RdTmp.tmp];
}

/* Notes whether statement `st` of the input superblock defines such a temporary. */
static void note_stack_temp(const IRStmt* st, const VexGuestLayout* layout)
{
   const IRExpr* e;
   if (st->tag != Ist_WrTmp) return;
   e = st->Ist.WrTmp.data;
   stack_temps[st->Ist.WrTmp.tmp] =
      from_stack(e) ||
      (e->tag == Iex_Get && e->Iex.Get.ty == Ity_I64 &&
       (e->Iex.Get.offset == layout->offset_SP ||
        e->Iex.Get.offset == offsetof(VexGuestAMD64State, guest_RBP))) ||
      (e->tag == Iex_Binop && (e->Iex.Binop.op == Iop_Add64 || e->Iex.Binop.op == Iop_Sub64) &&
       (from_stack(e->Iex.Binop.arg1) || from_stack(e->Iex.Binop.arg2)));
}

/* The instruction being instrumented (for ARG_SITE), and whether it is a repeated string
   instruction (rep movs, rep stos, ...: glibc's memcpy and memset of a few KB and more). */
static Addr instruction;
static Bool repeated_string;

/* Whether the amd64 instruction at `at` (`length` bytes) has a rep prefix and a string
   opcode (0xA4-0xA7, 0xAA-0xAF). */
static Bool is_repeated_string(const UChar* at, UInt length)
{
   Bool rep = False;
   UInt i = 0;
   for (; i < length && (at[i] == 0xF2 || at[i] == 0xF3 || at[i] == 0x66 || at[i] == 0x67 ||
                         (at[i] >= 0x40 && at[i] <= 0x4F));
        i++)
      rep = rep || at[i] == 0xF2 || at[i] == 0xF3;
   return rep && i < length &&
          ((at[i] >= 0xA4 && at[i] <= 0xA7) || (at[i] >= 0xAA && at[i] <= 0xAF));
}

/* Whether to call the task helpers: not for an access that would change nothing in the shadow
   (tr_memory_changes_ir: in a loop most accesses repeat an earlier one), which also covers
   the running instance's own frames (they make no dependency: the helpers find that too). An
   access to a local variable (at -O0 most accesses, most in the own frames) or of a repeated
   string instruction (each byte of a copy is new to the instance) is checked for the own
   frames only (tr_memory_own_ir), which costs it less. */
static IRExpr* task_guard(IRSB* sb, Bool store, IRExpr* addr, Int size)
{
   IRExpr* changes;
   if (!tr_memory_checks_inline()) return NULL;
   changes = from_stack(addr) || repeated_string ? NULL
                                                 : tr_memory_changes_ir(sb, store, addr, size);
   return changes ? changes : negation(sb, tr_memory_own_ir(sb, addr, size));
}

/* The communication recordings look at loads only while a flow is open (tr_comm_load_guard). */
static IRExpr* comm_guard(IRSB* sb, Bool store, IRExpr* addr, Int size)
{
   return store ? NULL : tr_comm_load_guard(sb);
}

static const Helpers kTaskHelpers = {"tr_memory_load", tr_memory_load, "tr_memory_store",
                                     tr_memory_store, ARG_NONE, task_guard};
static const Helpers kOverlapHelpers = {"tr_overlap_load", tr_overlap_load, "tr_overlap_store",
                                        tr_overlap_store, ARG_COUNT, NULL};
static const Helpers kCommHelpers = {"tr_comm_load", tr_comm_load, "tr_comm_store", tr_comm_store,
                                     ARG_SITE, comm_guard};
static const Helpers kThreadCommHelpers = {"tr_threadcomm_access", tr_threadcomm_access,
                                           "tr_threadcomm_access", tr_threadcomm_access, ARG_NONE,
                                           NULL};

/* A call of the load or store helper on `size` bytes at `addr`, when `guard` (NULL: always);
   `pending`: the instructions of this superblock not yet in the counter. */
static void add_access(IRSB* sb, const Helpers* h, Bool store, IRExpr* addr, Int size,
                       IRExpr* guard, ULong pending)
{
   IRDirty* di;
   IRExpr* hsize = mkIRExpr_HWord((HWord)size);
   IRExpr** args = h->third == ARG_COUNT ? mkIRExprVec_3(addr, hsize, tr_count_now(sb, pending))
                   : h->third == ARG_SITE ? mkIRExprVec_3(addr, hsize, mkIRExpr_HWord(tr_comm_site(instruction)))
                                          : mkIRExprVec_2(addr, hsize);
   Int n = h->third == ARG_NONE ? 2 : 3;
   IRExpr* when = h->guard ? h->guard(sb, store, addr, size) : NULL;
   if (when && guard) {
      IRTemp both = newIRTemp(sb->tyenv, Ity_I1);
      addStmtToIRSB(sb, IRStmt_WrTmp(both, IRExpr_Binop(Iop_And1, guard, when)));
      guard = IRExpr_RdTmp(both);
   } else if (when) {
      guard = when;
   }
   if (store)
      di = unsafeIRDirty_0_N(n, h->store_name, VG_(fnptr_to_fnentry)(h->store), args);
   else
      di = unsafeIRDirty_0_N(n, h->load_name, VG_(fnptr_to_fnentry)(h->load), args);
   if (guard) di->guard = guard;
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

static void instrument_memory(IRSB* sb, const Helpers* h, const IRStmt* st, ULong pending)
{
   switch (st->tag) {
      case Ist_WrTmp:
         if (st->Ist.WrTmp.data->tag == Iex_Load)
            add_access(sb, h, False, st->Ist.WrTmp.data->Iex.Load.addr,
                       sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty), NULL, pending);
         break;
      case Ist_Store:
         add_access(sb, h, True, st->Ist.Store.addr,
                    sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.Store.data)), NULL, pending);
         break;
      case Ist_StoreG: {
         const IRStoreG* sg = st->Ist.StoreG.details;
         add_access(sb, h, True, sg->addr, sizeofIRType(typeOfIRExpr(sb->tyenv, sg->data)),
                    sg->guard, pending);
         break;
      }
      case Ist_LoadG: {
         const IRLoadG* lg = st->Ist.LoadG.details;
         IRType wide = Ity_INVALID, narrow = Ity_INVALID;
         typeOfIRLoadGOp(lg->cvt, &wide, &narrow);
         add_access(sb, h, False, lg->addr, sizeofIRType(narrow), lg->guard, pending);
         break;
      }
      case Ist_CAS: {
         /* Read and (when it succeeds, which the shadow does not need to know) written. */
         const IRCAS* cas = st->Ist.CAS.details;
         Int size = sizeofIRType(typeOfIRExpr(sb->tyenv, cas->dataLo));
         if (cas->dataHi != NULL) size *= 2;
         add_access(sb, h, False, cas->addr, size, NULL, pending);
         add_access(sb, h, True, cas->addr, size, NULL, pending);
         break;
      }
      case Ist_LLSC:
         if (st->Ist.LLSC.storedata == NULL)
            add_access(sb, h, False, st->Ist.LLSC.addr,
                       sizeofIRType(typeOfIRTemp(sb->tyenv, st->Ist.LLSC.result)), NULL, pending);
         else
            add_access(sb, h, True, st->Ist.LLSC.addr,
                       sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.LLSC.storedata)), NULL, pending);
         break;
      case Ist_Dirty: {
         const IRDirty* d = st->Ist.Dirty.details;
         if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
            add_access(sb, h, False, d->mAddr, d->mSize, d->guard, pending);
         if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
            add_access(sb, h, True, d->mAddr, d->mSize, d->guard, pending);
         break;
      }
      default:
         break;
   }
}

/* Whether `st` stores the return address of a call (the address of the next instruction):
   a return address is no program data, and counting it would make the instance that calls
   tareador_end_task a producer of what its parent's `ret` reads. */
static Bool stores_return_address(const IRStmt* st, Addr next_instruction)
{
   const IRExpr* data = st->Ist.Store.data;
   return data->tag == Iex_Const && data->Iex.Const.con->tag == Ico_U64 &&
          data->Iex.Const.con->Ico.U64 == (ULong)next_instruction;
}

/* The loaded object that holds code address `a`: the tool's own (its preload library, the MPI
   wrappers, the dialect modules), the dynamic linker, or another. */
typedef enum { CODE_OTHER, CODE_TOOL, CODE_DYNAMIC_LINKER } CodeOwner;

static CodeOwner code_owner(Addr a)
{
   const DebugInfo* di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
   const HChar* file = di ? VG_(DebugInfo_get_filename)(di) : NULL;
   const HChar* base;
   if (file == NULL) return CODE_OTHER;
   base = VG_(strrchr)(file, '/');
   base = base ? base + 1 : file;
   if (VG_(strncmp)(base, "vgpreload_tareador", 18) == 0 ||
       VG_(strncmp)(base, "tareador-mpi-", 13) == 0)
      return CODE_TOOL;
   return VG_(strncmp)(base, "ld-linux", 8) == 0 ? CODE_DYNAMIC_LINKER : CODE_OTHER;
}

/* Whether the instruction at `a` is in a piece of the superblock whose code is counted. */
static Bool counted_at(const VexGuestExtents* vge, const Bool* counted, Addr a)
{
   UInt i;
   for (i = 0; i < vge->n_used && i < 3; i++)
      if (a >= (Addr)vge->base[i] && a < (Addr)vge->base[i] + vge->len[i]) return counted[i];
   return True;
}

/* After `put`, a write of the stack pointer: when the new value is above the old one (`returned`:
   the put of a return), a call of tr_memory_stack_rises (`tasks`) and of
   tr_threadcomm_stack_rises (`threadcomm`). */
static void add_stack_rise(IRSB* sb, const IRStmt* put, Int offset_sp, Bool returned, Bool tasks,
                           Bool threadcomm)
{
   IRTemp old = newIRTemp(sb->tyenv, Ity_I64), rises = newIRTemp(sb->tyenv, Ity_I1);
   IRExpr* new_sp = put->Ist.Put.data;
   IRDirty* di;
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Get(offset_sp, Ity_I64)));
   addStmtToIRSB(sb, (IRStmt*)put);
   addStmtToIRSB(sb, IRStmt_WrTmp(rises, IRExpr_Binop(Iop_CmpLT64U, IRExpr_RdTmp(old), new_sp)));
   if (tasks) {
      di = unsafeIRDirty_0_N(3, "tr_memory_stack_rises", VG_(fnptr_to_fnentry)(tr_memory_stack_rises),
                             mkIRExprVec_3(IRExpr_RdTmp(old), new_sp, mkIRExpr_HWord(returned)));
      di->guard = IRExpr_RdTmp(rises);
      addStmtToIRSB(sb, IRStmt_Dirty(di));
   }
   if (threadcomm) {
      di = unsafeIRDirty_0_N(3, "tr_threadcomm_stack_rises",
                             VG_(fnptr_to_fnentry)(tr_threadcomm_stack_rises),
                             mkIRExprVec_3(IRExpr_RdTmp(old), new_sp, mkIRExpr_HWord(returned)));
      di->guard = IRExpr_RdTmp(rises);
      addStmtToIRSB(sb, IRStmt_Dirty(di));
   }
}

/* Whether the amd64 instruction at `at` lowers the stack pointer by a register
   (`sub %rax,%rsp`: alloca, a variable-length array), not by a constant (a frame, a push). */
static Bool subtracts_register_from_sp(const UChar* at, UInt length)
{
   if (length != 3 || (at[0] & 0xF8) != 0x48) return False; /* REX.W, no extended rsp */
   return (at[1] == 0x29 && (at[2] & 0xC7) == 0xC4 && !(at[0] & 1)) ||  /* sub r64, r/m=rsp */
          (at[1] == 0x2B && (at[2] & 0xF8) == 0xE0 && !(at[0] & 4));    /* sub reg=rsp, r/m64 */
}

/* After `st`, the new stack pointer of such an instruction (the optimiser may have removed
   its write of the register): a call of tr_memory_stack_allocated when it is lower. */
static void add_stack_allocation(IRSB* sb, const IRStmt* st)
{
   IRTemp lowered = newIRTemp(sb->tyenv, Ity_I1);
   IRExpr* old_sp = st->Ist.WrTmp.data->Iex.Binop.arg1;
   IRExpr* new_sp = IRExpr_RdTmp(st->Ist.WrTmp.tmp);
   IRDirty* di;
   addStmtToIRSB(sb, IRStmt_WrTmp(lowered, IRExpr_Binop(Iop_CmpLT64U, new_sp, old_sp)));
   di = unsafeIRDirty_0_N(3, "tr_memory_stack_allocated",
                          VG_(fnptr_to_fnentry)(tr_memory_stack_allocated),
                          mkIRExprVec_3(old_sp, new_sp, mkIRExpr_HWord(instruction)));
   di->guard = IRExpr_RdTmp(lowered);
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

/* At the end of a superblock that calls a function: the call, for the potential tasks, with the
   target and the stack pointer after the return address was pushed. */
static void add_call_report(IRSB* sb, IRExpr* target, Int offset_sp)
{
   IRTemp sp = newIRTemp(sb->tyenv, Ity_I64);
   IRDirty* di;
   addStmtToIRSB(sb, IRStmt_WrTmp(sp, IRExpr_Get(offset_sp, Ity_I64)));
   di = unsafeIRDirty_0_N(2, "tr_potential_call", VG_(fnptr_to_fnentry)(tr_potential_call),
                          mkIRExprVec_2(target, IRExpr_RdTmp(sp)));
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

IRSB* tr_instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout* layout,
                    const VexGuestExtents* vge, const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy)
{
   IRSB* sb_out = deepCopyIRSBExceptStmts(sb_in);
   ULong pending = 0; /* instructions seen since the last counter update */
   /* The tool's code is not the program's: its instructions (the MPI wrappers' before and
      after the call they wrap, ~140 a call) are not counted, and its memory accesses, like the
      dynamic linker's (lazy binding writes a GOT slot in whichever task first calls a
      function, which every later caller would then depend on), are not the program's data
      flow. */
   CodeOwner owner = code_owner((Addr)vge->base[0]);
   Bool ignored = owner != CODE_OTHER;
   /* A superblock may go on into the code a jump leads to (a PLT's jump into a wrapper): each
      of its pieces is counted as the code there is. */
   Bool counted_extent[3];
   Bool tasks = tr_memory_instrumenting() && !ignored;
   Bool overlap = tr_overlap_enabled() && !ignored;
   Bool comm = tr_comm_enabled() && !ignored, threadcomm = tr_threadcomm_enabled() && !ignored;
   Bool threads_share = tr_threadcomm_enabled(); /* (even ignored code's frames die) */
   Addr next_instruction = 0;
   Bool allocating = False; /* in an instruction that lowers the stack pointer by a register */
   Int i, last_mark = -1;
   tl_assert(gWordTy == hWordTy);
   for (i = 0; i < vge->n_used && i < 3; i++)
      counted_extent[i] = code_owner((Addr)vge->base[i]) != CODE_TOOL;
   tr_count_use_layout(layout);
   for (i = 0; i < sb_in->stmts_used; i++)
      if (sb_in->stmts[i] && sb_in->stmts[i]->tag == Ist_IMark) last_mark = i;
   if ((UInt)sb_in->tyenv->types_used > max_stack_temps) {
      max_stack_temps = 2 * sb_in->tyenv->types_used;
      stack_temps = VG_(realloc)("tareador.instrument", stack_temps,
                                 max_stack_temps * sizeof(Bool));
   }
   VG_(memset)(stack_temps, 0, max_stack_temps * sizeof(Bool));
   for (i = 0; i < sb_in->stmts_used; i++) {
      IRStmt* st = sb_in->stmts[i];
      if (st == NULL) continue;
      if (tasks) note_stack_temp(st, layout);
      if (st->tag == Ist_IMark) {
         if (counted_at(vge, counted_extent, (Addr)st->Ist.IMark.addr)) pending++;
         instruction = (Addr)st->Ist.IMark.addr;
         repeated_string =
            tasks && is_repeated_string((const UChar*)instruction, st->Ist.IMark.len);
         next_instruction = (Addr)(st->Ist.IMark.addr + st->Ist.IMark.len);
         allocating = !ignored && subtracts_register_from_sp((const UChar*)instruction,
                                                             st->Ist.IMark.len);
      }
      if (st->tag == Ist_Exit && pending > 0) {
         tr_count_add(sb_out, pending);
         pending = 0;
      }
      /* Return addresses (pushed by calls, popped by the `ret` that ends a superblock) are
         not data. */
      if ((tasks || overlap || comm || threadcomm) && !(st->tag == Ist_Store && stores_return_address(st, next_instruction)) &&
          !(sb_in->jumpkind == Ijk_Ret && i > last_mark && st->tag == Ist_WrTmp &&
            st->Ist.WrTmp.data->tag == Iex_Load)) {
         if (tasks) instrument_memory(sb_out, &kTaskHelpers, st, pending);
         if (overlap) instrument_memory(sb_out, &kOverlapHelpers, st, pending);
         if (comm) instrument_memory(sb_out, &kCommHelpers, st, pending);
         if (threadcomm) instrument_memory(sb_out, &kThreadCommHelpers, st, pending);
      }
      /* Task dependencies and the threads' communication forget the stack below its pointer
         when it rises. */
      if ((tasks || threads_share) && st->tag == Ist_Put && st->Ist.Put.offset == layout->offset_SP &&
          typeOfIRExpr(sb_in->tyenv, st->Ist.Put.data) == Ity_I64) {
         add_stack_rise(sb_out, st, layout->offset_SP, sb_in->jumpkind == Ijk_Ret && i > last_mark,
                        tasks, threads_share);
         continue;
      }
      addStmtToIRSB(sb_out, st);
      /* And see the arrays the program allocates on it, before tasks are traced too (a program
         allocates them before tareador_ON). */
      if (allocating && st->tag == Ist_WrTmp && st->Ist.WrTmp.data->tag == Iex_Binop &&
          st->Ist.WrTmp.data->Iex.Binop.op == Iop_Sub64 &&
          st->Ist.WrTmp.data->Iex.Binop.arg2->tag == Iex_RdTmp) {
         add_stack_allocation(sb_out, st);
         allocating = False;
      }
   }
   if (pending > 0) tr_count_add(sb_out, pending);
   if (tasks && tr_potential_enabled() && sb_in->jumpkind == Ijk_Call)
      add_call_report(sb_out, sb_in->next, layout->offset_SP);
   return sb_out;
}
