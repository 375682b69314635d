/* tr_memory.c — the shadow memory of task dependencies: what loads and stores of the running
   instance do with who owns each byte (tr_owners.h).

   Readers: with read-after-write only, one id (the last instance that read the byte since it
   was written: enough to count each byte once per reader). With write-after-read, every reader
   since the last write counts, so the field holds either one id or (top bit set) a reader
   list: cells (reader, rest) shared between bytes, plus a memo of "list + reader -> list" so
   that the common case (an instance rereading bytes it already read) costs one lookup. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "tr_disabled.h"
#include "tr_instrument.h"
#include "tr_memory.h"
#include "tr_objects.h"
#include "tr_owners.h"
#include "tr_potential.h"
#include "tr_reduced.h"
#include "tr_stack.h"
#include "tr_tasks.h"


static struct {
   Bool on, paused;
   Bool tracking;        /* on and not paused: what the helpers check */
   Bool potential;       /* --potential-tasks: accesses and stack rises go to tr_potential.c */
   Bool war, waw;
   ThreadId tid;
   Addr stack_bottom;    /* the lowest address the traced thread's stack may reach */
   Addr stack_end;       /* and the highest, plus one */
} state;

/* ---- Reader lists ------------------------------------------------------------------------ */

#define LIST_BIT 0x80000000u

typedef struct {
   UInt reader;
   UInt rest;  /* 0, one id, or another list */
} Cell;

static Cell* cells;
static UInt n_cells = 1, max_cells;  /* cell 0 unused: LIST_BIT alone is never a list */

typedef struct {
   UInt readers, reader, result;
} Memo;

static Memo* memo;
static UInt memo_slots, memo_used;

static UInt memo_hash(UInt readers, UInt reader)
{
   return (readers * 0x9E3779B1u) ^ (reader * 0x85EBCA77u);
}

static Memo* memo_slot(UInt readers, UInt reader)
{
   UInt i = memo_hash(readers, reader) & (memo_slots - 1);
   while (memo[i].readers != 0 && (memo[i].readers != readers || memo[i].reader != reader))
      i = (i + 1) & (memo_slots - 1);
   return &memo[i];
}

static void memo_grow(void)
{
   Memo* old = memo;
   UInt old_slots = memo_slots, i;
   memo_slots = memo_slots ? 2 * memo_slots : 4096;
   memo = VG_(calloc)("tareador.shadow.memo", memo_slots, sizeof(Memo));
   memo_used = 0;
   for (i = 0; i < old_slots; i++)
      if (old[i].readers != 0) {
         *memo_slot(old[i].readers, old[i].reader) = old[i];
         memo_used++;
      }
   VG_(free)(old);
}

static Bool list_has(UInt readers, UInt reader)
{
   while (readers & LIST_BIT) {
      const Cell* c = &cells[readers & ~LIST_BIT];
      if (c->reader == reader) return True;
      readers = c->rest;
   }
   return readers == reader;
}

/* `readers` with `reader` added (the same value when it is there already). */
static UInt add_reader(UInt readers, UInt reader)
{
   Memo* m;
   UInt result;
   if (readers == 0) return reader;
   if (readers == reader) return readers;
   if (2 * (memo_used + 1) > memo_slots) memo_grow();
   m = memo_slot(readers, reader);
   if (m->readers != 0) return m->result;
   if (list_has(readers, reader)) {
      result = readers;
   } else {
      tl_assert(n_cells < LIST_BIT);
      if (n_cells >= max_cells) {
         max_cells = max_cells ? 2 * max_cells : 4096;
         cells = VG_(realloc)("tareador.shadow.cells", cells, max_cells * sizeof(Cell));
      }
      cells[n_cells].reader = reader;
      cells[n_cells].rest = readers;
      result = n_cells++ | LIST_BIT;
   }
   m->readers = readers;
   m->reader = reader;
   m->result = result;
   memo_used++;
   return result;
}

/* ---- Accesses ---------------------------------------------------------------------------- */

/* What the accesses found is told to tr_tasks.c in runs: accesses come in runs on one object
   (or alternate between two, in a copy), whose sums and spans are the same told at once. A
   dependency is told at once when it is new (it may start a wait record), its repeats' bytes
   later. Everything is told before another instance runs (tr_memory_tell). */

/* A use of an object by the running instance not told yet. */
typedef struct {
   UInt object;  /* 0: none */
   Bool disabled;
   Addr low, high;
   ULong read, written;
} PendingUse;

#define PENDING_USES 2

static PendingUse pending_uses[PENDING_USES];  /* the most recent first */

/* The last dependency told, and the bytes of its repeats since. */
static struct {
   UInt from, object;
   TrDepKind kind;
   ULong bytes;
} pending_dependency;

static void tell_use(PendingUse* u)
{
   if (u->object)
      tr_tasks_uses(u->object, u->low, u->high - u->low, u->read, u->written, u->disabled);
   u->object = 0;
}

static void tell_dependency(void)
{
   if (pending_dependency.bytes)
      tr_tasks_depends(pending_dependency.from, pending_dependency.kind,
                       pending_dependency.object, pending_dependency.bytes);
   pending_dependency.from = 0;
   pending_dependency.bytes = 0;
}

void tr_memory_tell(void)
{
   UInt i;
   for (i = 0; i < PENDING_USES; i++) tell_use(&pending_uses[i]);
   tell_dependency();
}

/* `bytes` bytes from `a` make the running instance depend on `from` (not through the
   compiler's own stack slots, nor through the runtime libraries' state, which is counted). */
static void depend_on(UInt from, TrDepKind kind, Addr a, ULong bytes)
{
   UInt object = tr_object_at(state.tid, a);
   const TrObject* o;
   if (from == pending_dependency.from && kind == pending_dependency.kind &&
       object == pending_dependency.object) {
      pending_dependency.bytes += bytes;
      return;
   }
   o = tr_object(object);
   if (o && o->temporary) return;
   if (o && o->runtime) {
      tr_tasks_runtime_dependency(from);
      return;
   }
   tell_dependency();
   tr_tasks_depends(from, kind, object, bytes);
   pending_dependency.from = from;
   pending_dependency.kind = kind;
   pending_dependency.object = object;
}

/* The same, checked inline first: most bytes read first were written before tasks were traced,
   by the instance itself or by one still open (whose dependants come after it anyway). */
static inline void depend(UInt from, TrDepKind kind, Addr a, ULong bytes)
{
   if (from != 0 && from != tr_task_current && !tr_task_is_open(from))
      depend_on(from, kind, a, bytes);
}

/* Whether [a, a+n) is in the stack frames of the running instance (below the frame that
   started it): dead once it ends, and not among what it uses. */
static Bool in_own_frames(Addr a, SizeT n)
{
   return a >= state.stack_bottom && a + n <= tr_task_stack_top;
}

/* Whether [a, a+n) is in the part of them no instance it created can have written (private to
   it: no dependency either). */
static Bool in_private_frames(Addr a, SizeT n)
{
   return a >= state.stack_bottom && a + n <= tr_task_private_top;
}

/* Bytes read or written for the first time by the running instance (its own frames are not
   among what it uses); `disabled`: of a disabled object. */
static void used(Addr a, SizeT n, ULong read, ULong written, Bool disabled)
{
   PendingUse* u = &pending_uses[0];
   UInt object, i;
   if (in_own_frames(a, n)) return;
   object = tr_object_at(state.tid, a);
   for (i = 0; i < PENDING_USES && (u->object != object || u->disabled != disabled); i++, u++) {}
   if (i == PENDING_USES) {
      if (tr_object(object) && tr_object(object)->temporary) return;
      if (object == 0) return;
      u = &pending_uses[PENDING_USES - 1];
      tell_use(u);
      for (i = PENDING_USES - 1; i > 0; i--) pending_uses[i] = pending_uses[i - 1];
      u = &pending_uses[0];
      u->object = object;
      u->disabled = disabled;
      u->low = a;
      u->high = a + n;
      u->read = u->written = 0;
   }
   if (a < u->low) u->low = a;
   if (a + n > u->high) u->high = a + n;
   /* One of the two is zero: added alone, not as a pair of vector lanes, which stalled on
      forwarding the previous access's store of the pair. */
   if (read) u->read += read;
   if (written) u->written += written;
}

/* What a load of the running instance found: its inputs, the run of them from one writer (a
   dependency), and the last reader list it extended. */
typedef struct {
   UInt current, inputs;
   UInt run_writer, run_start, run_bytes;
   UInt last_readers, last_result;
} Load;

/* The readers of a byte once the running instance has read it. */
static UInt read_by_current(Load* l, UInt readers)
{
   if (!state.war) return l->current;
   if (readers != l->last_readers || l->last_result == 0) {
      l->last_result = add_reader(readers, l->current);
      l->last_readers = readers;
   }
   return l->last_result;
}

/* Bytes marked TR_REDUCED read (or overwritten) by the running instance: tr_reduced.c knows
   whom that depends on. Before an overwrite, the running instance's own updates are told: what it
   overwrites is not theirs either. */
static void after_updates(Addr a, SizeT n, Bool overwritten)
{
   UInt i;
   for (i = 0; overwritten && i < PENDING_USES; i++)
      if (pending_uses[i].disabled && pending_uses[i].written) tell_use(&pending_uses[i]);
   tr_reduced_accessed(tr_object_at(state.tid, a), a, n, overwritten);
}

/* The run of bytes with one writer that a load read ends: the instance depends on the writer,
   or, on bytes updated while disabled, on their updaters. */
static void end_run(const Load* l, Addr a)
{
   if (l->run_bytes == 0) return;
   if (l->run_writer == TR_REDUCED) after_updates(a + l->run_start, l->run_bytes, False);
   else depend(l->run_writer, TR_DEP_RAW, a + l->run_start, l->run_bytes);
}

/* A byte counts once per instance between two writes: the first time the instance reads it.
   It is an input of the instance (a `uses` read, and a dependency on its writer) unless the
   instance wrote it itself. `b` is the state of the `length` bytes from byte `i` of the access
   at `a` (which must all change alike). */
static void load_bytes(Load* l, TrOwners* b, UInt i, UInt length, Addr a)
{
   UInt result;
   if (b->readers == l->current) return;
   result = read_by_current(l, b->readers);
   if (result == b->readers) return;
   b->readers = result;
   if (b->writer == l->current) return;
   l->inputs += length;
   if (b->writer != l->run_writer || l->run_start + l->run_bytes != i) {
      end_run(l, a);
      l->run_writer = b->writer;
      l->run_start = i;
      l->run_bytes = 0;
   }
   l->run_bytes += length;
}

static void load_in_leaf(TrOwnersLeaf* leaf, UInt at, UInt n, Addr a)
{
   Load l = {.current = tr_task_current};
   UInt i = 0, length, k;
   while (i < n) {
      TrOwners* g = &leaf->granule[(at + i) / TR_GRANULE];
      UInt first = (at + i) % TR_GRANULE;
      length = TR_GRANULE - first < n - i ? TR_GRANULE - first : n - i;
      /* Part of a uniform granule read for the first time: its bytes are no longer alike. */
      if (g->writer != TR_SPLIT && length < TR_GRANULE && g->readers != l.current &&
          read_by_current(&l, g->readers) != g->readers)
         tr_owners_split(g);
      if (g->writer != TR_SPLIT) {
         load_bytes(&l, g, i, length, a);
      } else {
         TrOwnersDetail* d = tr_owners_detail(g->readers);
         for (k = 0; k < length; k++) load_bytes(&l, &d->byte[first + k], i + k, 1, a);
         tr_owners_join(g, first, first + length);
      }
      i += length;
   }
   end_run(&l, a);
   if (l.inputs) used(a, n, l.inputs, 0, False);
}

/* Every reader in `readers` other than the running instance precedes a write of `bytes` bytes. */
static void depend_on_readers(UInt readers, Addr a, ULong bytes)
{
   while (readers & LIST_BIT) {
      const Cell* c = &cells[readers & ~LIST_BIT];
      depend(c->reader, TR_DEP_WAR, a, bytes);
      readers = c->rest;
   }
   depend(readers, TR_DEP_WAR, a, bytes);
}

/* A write makes the instance the bytes' writer and leaves them with no readers. Overwriting
   the stack makes no write-after-read or write-after-write dependency: the compiler reuses the
   slots of a frame for its own purposes (spills, the annotations' request blocks), so such a
   pair would say nothing of the program's data. Each dependency covers a run of bytes with one
   earlier writer (or reader list). */
static void store_in_leaf(TrOwnersLeaf* leaf, UInt at, UInt n, Addr a)
{
   UInt current = tr_task_current, i = 0, j, length, fresh = 0;
   Bool stack = a >= state.stack_bottom && a < state.stack_end;
   Bool war = state.war && !stack, waw = state.waw && !stack;
   TrOwners written = {current, 0};
   while (i < n) {
      UInt writer = tr_owners_piece(leaf, at + i, n - i, &length)->writer;
      for (j = i + length; j < n; j += length)
         if (tr_owners_piece(leaf, at + j, n - j, &length)->writer != writer) break;
      if (writer != current) {
         if (writer == TR_REDUCED) after_updates(a + i, j - i, True);
         else if (waw && writer != 0) depend(writer, TR_DEP_WAW, a + i, j - i);
         fresh += j - i;
      }
      i = j;
   }
   for (i = 0; war && i < n; i = j) {
      UInt readers = tr_owners_piece(leaf, at + i, n - i, &length)->readers;
      for (j = i + length; j < n; j += length)
         if (tr_owners_piece(leaf, at + j, n - j, &length)->readers != readers) break;
      if (readers != 0) depend_on_readers(readers, a + i, j - i);
   }
   tr_owners_assign(leaf, at, n, written);
   if (fresh) used(a, n, 0, fresh, False);
}

static void track(Addr a, SizeT n, Bool write)
{
   while (n > 0) {
      TrOwnersLeaf* leaf = tr_owners_leaf(a, True);
      UInt at = tr_shadow_offset(a), k = tr_shadow_run(a, n);
      if (leaf == NULL) return;
      if (write) store_in_leaf(leaf, at, k, a);
      else load_in_leaf(leaf, at, k, a);
      a += k;
      n -= k;
   }
}

/* Whom the `length` bytes from `a`, in state `b`, named before they were updated while disabled
   (of `object`, 0 if not looked up yet): handed over to tr_reduced.c. Their readers only matter to
   write-after-read, which the stack makes none of. */
static UInt hand_over(UInt object, const TrOwners* b, Addr a, UInt length)
{
   UInt readers = state.war && !(a >= state.stack_bottom && a < state.stack_end) ? b->readers : 0;
   if ((b->writer == 0 || b->writer == TR_REDUCED) && readers == 0) return object;
   if (object == 0) object = tr_object_at(state.tid, a);
   if (b->writer != 0 && b->writer != TR_REDUCED)
      tr_reduced_from(object, b->writer, a, length, True);
   while (readers & LIST_BIT) {
      const Cell* c = &cells[readers & ~LIST_BIT];
      tr_reduced_from(object, c->reader, a, length, False);
      readers = c->rest;
   }
   if (readers != 0) tr_reduced_from(object, readers, a, length, False);
   return object;
}

/* [a, a+n), of a disabled object, updated (a reduction): the bytes are marked TR_REDUCED, with no
   readers, so that every instance's next access to them, even that of the one that wrote them
   last, asks tr_reduced.c for their updaters (the updates themselves make no dependency). */
static void updated_while_disabled(Addr a, SizeT n)
{
   static const TrOwners reduced = {TR_REDUCED, 0};
   UInt object = 0;
   while (n > 0) {
      TrOwnersLeaf* leaf = tr_owners_leaf(a, True);
      UInt at = tr_shadow_offset(a), k = tr_shadow_run(a, n), i, length;
      Bool marked = True;
      if (leaf == NULL) return;
      for (i = 0; i < k; i += length) {
         const TrOwners* b = tr_owners_piece(leaf, at + i, k - i, &length);
         if (b->writer == TR_REDUCED && b->readers == 0) continue;
         marked = False;
         object = hand_over(object, b, a + i, length);
      }
      if (!marked) tr_owners_assign(leaf, at, k, reduced);
      a += k;
      n -= k;
   }
}

static void access(Addr a, SizeT n, Bool write)
{
   const TrDisabled* r;
   if (state.potential) {
      tr_potential_access(a, n, write);
      return;
   }
   /* The running instance's private frames make no dependency and are not among what it uses:
      the frames die with it, and the next instance to use those addresses writes its own
      frames there before reading them (the instrumented code skips these accesses inline).
      Above them, in its own frames, it may read what an instance it created wrote. */
   if (in_private_frames(a, n)) return;
   /* Other threads (an MPI library's progress threads, say) are not the traced program's. */
   if (VG_(get_running_tid)() != state.tid) return;
   /* The bytes of a disabled object are used, and make no dependency. */
   while (n > 0 && (r = tr_disabled_in(a, n)) != NULL) {
      Addr start = a > r->start ? a : r->start, end = a + n < r->end ? a + n : r->end;
      if (start > a) track(a, start - a, write);
      if (write) updated_while_disabled(start, end - start);
      used(start, end - start, write ? 0 : end - start, write ? end - start : 0, True);
      n = a + n - end;
      a = end;
   }
   track(a, n, write);
}

/* Whether a load (`write` False) or store of the running instance at [a, a+n) would change
   nothing, checked first: most accesses repeat one. A load changes nothing when the instance
   read the bytes already or (when no write-after-read is sought, which needs every reader)
   wrote them; a store, when the instance wrote them and nobody read them since (with
   read-after-write only: or only the instance itself, which reads its own writes freely). */
static inline Bool nothing_new(const TrOwnersLeaf* leaf, Addr a, UWord n, Bool write)
{
   UInt at = tr_shadow_offset(a), current = tr_task_current, i, length;
   for (i = 0; i < n; i += length) {
      const TrOwners* b = tr_owners_piece(leaf, at + i, n - i, &length);
      Bool same = write ? b->writer == current &&
                             (b->readers == 0 || (b->readers == current && !state.war))
                        : b->readers == current || (b->writer == current && !state.war);
      if (!same) return False;
   }
   return True;
}

/* The same check in the instrumented code, for an access within a granule whose bytes are
   alike, as one comparison of a word with zero (the call's condition): the granule's state XOR
   the running instance in both halves has a zero half where the instance is the writer or the
   readers (a split granule's readers name its detail, never an instance), and the product of
   two halves is zero where one is. */
IRExpr* tr_memory_changes_ir(IRSB* sb, Bool store, IRExpr* addr, Int size)
{
   IRTemp current = newIRTemp(sb->tyenv, Ity_I32), both = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp writer_low = newIRTemp(sb->tyenv, Ity_I32), writer = newIRTemp(sb->tyenv, Ity_I64);
   IRExpr* owners;
   IRExpr* x;
   IRExpr* readers;
   IRExpr* changes;
   IRExpr* half = IRExpr_Const(IRConst_U8(32));
   if (size > TR_GRANULE) return NULL;
   owners = tr_owners_granule_ir(sb, addr);
   addStmtToIRSB(sb, IRStmt_WrTmp(current, IRExpr_Load(Iend_LE, Ity_I32,
                                                       mkIRExpr_HWord((HWord)&tr_task_current))));
   addStmtToIRSB(sb, IRStmt_WrTmp(both, IRExpr_Binop(Iop_32HLto64, IRExpr_RdTmp(current),
                                                     IRExpr_RdTmp(current))));
   x = tr_ir_op(sb, Ity_I64, Iop_Xor64, owners, IRExpr_RdTmp(both));
   /* x's halves: not written by the instance (low), not read by it (high). */
   addStmtToIRSB(sb, IRStmt_WrTmp(writer_low, IRExpr_Unop(Iop_64to32, x)));
   addStmtToIRSB(sb, IRStmt_WrTmp(writer, IRExpr_Unop(Iop_32Uto64, IRExpr_RdTmp(writer_low))));
   readers = tr_ir_op(sb, Ity_I64, Iop_Shr64, x, half);
   if (store && state.war) {
      /* Unless written by the instance and read by nobody since. */
      changes = tr_ir_op(sb, Ity_I64, Iop_Xor64, owners,
                         tr_ir_op(sb, Ity_I64, Iop_Shr64, IRExpr_RdTmp(both), half));
   } else if (store) {
      /* ... or by itself only. */
      IRExpr* others = tr_ir_op(sb, Ity_I64, Iop_Mul64,
                                tr_ir_op(sb, Ity_I64, Iop_Shr64, owners, half), readers);
      changes = tr_ir_op(sb, Ity_I64, Iop_Or64, IRExpr_RdTmp(writer), others);
   } else {
      /* Unless read by the instance (or written by it, with read-after-write only). */
      changes = state.war ? readers
                          : tr_ir_op(sb, Ity_I64, Iop_Mul64, IRExpr_RdTmp(writer), readers);
   }
   if (size > 1) {
      /* Not within one granule: its offset plus the size passes the granule. */
      IRExpr* offset = tr_ir_op(sb, Ity_I64, Iop_And64, addr, mkIRExpr_HWord(TR_GRANULE - 1));
      IRExpr* last = tr_ir_op(sb, Ity_I64, Iop_Add64, offset, mkIRExpr_HWord((HWord)size - 1));
      IRExpr* across = tr_ir_op(sb, Ity_I64, Iop_Shr64, last, IRExpr_Const(IRConst_U8(3)));
      changes = tr_ir_op(sb, Ity_I64, Iop_Or64, changes, across);
   }
   return tr_ir_op(sb, Ity_I1, Iop_CmpNE64, changes, mkIRExpr_HWord(0));
}

/* An access of one piece (the whole of a uniform granule: a double, a pointer; or one byte of
   a split granule), with read-after-write only and of no disabled object, as load_in_leaf and
   store_in_leaf would take it, when it is the running instance's (False: not done). The first
   touches of an instance's data are mostly of whole granules; copies of more than a few KB
   (glibc's memcpy: `rep movsb`, a byte per iteration) and loops over chars go through granules
   a byte at a time: the first byte splits the granule, the others come here, and the last one
   joins it. */
static inline Bool one_piece(TrOwnersLeaf* leaf, UInt at, Addr a, UWord n, Bool write)
{
   TrOwners* g = &leaf->granule[at / TR_GRANULE];
   UInt current = tr_task_current;
   TrOwners* b;
   if (state.war || state.waw || tr_disabled_near(a, n)) return False;
   if (n == TR_GRANULE && at % TR_GRANULE == 0 && g->writer != TR_SPLIT)
      b = g;
   else if (n == 1 && g->writer == TR_SPLIT)
      b = &tr_owners_detail(g->readers)->byte[at % TR_GRANULE];
   else
      return False;
   if (write ? b->writer == current && (b->readers == 0 || b->readers == current)
             : b->readers == current || b->writer == current)
      return True;
   if (b->writer == TR_REDUCED || in_own_frames(a, n) || VG_(get_running_tid)() != state.tid)
      return False;
   if (write) {
      Bool fresh = b->writer != current;
      b->writer = current;
      b->readers = 0;
      if (fresh) used(a, n, 0, n, False);
   } else {
      b->readers = current;
      depend(b->writer, TR_DEP_RAW, a, n);
      used(a, n, n, 0, False);
   }
   if (b != g) tr_owners_join(g, at % TR_GRANULE, at % TR_GRANULE + 1);
   return True;
}

/* What the helpers do: an access within a leaf there is (all but the first of a leaf and the
   rare one across two) that changes something goes straight to it when no disabled object is
   near, as access() and track() would take it. */
static inline void helper_access(Addr a, UWord n, Bool write)
{
   TrOwnersLeaf* leaf = tr_shadow_find(&tr_owners, a);
   UInt at = tr_shadow_offset(a);
   if (leaf && !state.potential && one_piece(leaf, at, a, n, write)) return;
   if (leaf == NULL || at + n > TR_SHADOW_LEAF_SPAN || state.potential) {
      access(a, n, write);
   } else if (!nothing_new(leaf, a, n, write)) {
      if (tr_disabled_near(a, n) || in_own_frames(a, n) || VG_(get_running_tid)() != state.tid)
         access(a, n, write);
      else if (write)
         store_in_leaf(leaf, at, n, a);
      else
         load_in_leaf(leaf, at, n, a);
   }
}

VG_REGPARM(2) void tr_memory_load(Addr a, UWord size)
{
   if (state.tracking) helper_access(a, size, False);
}

VG_REGPARM(2) void tr_memory_store(Addr a, UWord size)
{
   if (state.tracking) helper_access(a, size, True);
}

void tr_memory_read(Addr a, SizeT size)
{
   if (state.on && size > 0) access(a, size, False);
}

void tr_memory_write(Addr a, SizeT size)
{
   if (state.on && size > 0) access(a, size, True);
}

/* ---- Forgetting -------------------------------------------------------------------------- */

void tr_memory_forget(Addr a, SizeT n)
{
   static const TrOwners nothing = {0, 0};
   while (n > 0) {
      UInt at = tr_shadow_offset(a), k = tr_shadow_run(a, n);
      TrOwnersLeaf* leaf = tr_owners_leaf(a, False);
      if (leaf) tr_owners_assign(leaf, at, k, nothing);
      a += k;
      n -= k;
   }
}

/* ---- Control ----------------------------------------------------------------------------- */

static void on_block(Addr start, SizeT size, TrBlockEvent event)
{
   if (!state.on || size == 0) return;
   if (event == TR_BLOCK_DISABLED) {
      tr_disabled_add(start, size);
      return;
   }
   if (event != TR_BLOCK_NEW && state.tracking) access(start, size, event != TR_BLOCK_READ);
   if (event == TR_BLOCK_NEW || event == TR_BLOCK_FREED) tr_memory_forget(start, size);
   /* A block freed while disabled takes its disabling along: the next block there is another. */
   if (event == TR_BLOCK_FREED) tr_disabled_remove(start);
}

void tr_memory_start(UInt kinds, ThreadId tid)
{
   state.on = state.tracking = True;
   state.paused = False;
   state.war = (kinds & TR_DEP_WAR) != 0;
   state.waw = (kinds & TR_DEP_WAW) != 0;
   state.tid = tid;
   state.stack_end = VG_(thread_get_stack_max)(tid) + 1;
   state.stack_bottom = state.stack_end - VG_(thread_get_stack_size)(tid);
   tr_objects_on_block = on_block;
   tr_stack_traced(tid, VG_(get_SP)(tid));
   tr_memory_frames_moved();
}

void tr_memory_stop(void)
{
   state.on = state.tracking = False;
   tr_memory_frames_moved();
}

Bool tr_memory_instrumenting(void) { return state.on || state.potential; }

Bool tr_memory_checks_inline(void) { return state.on && !state.potential; }

/* The own-frame check of the instrumented code in one unsigned comparison: an access of 2^k
   bytes at `a` is in [stack bottom, tr_task_private_top) when a - own_low <= own_bound[k]. When
   the own frames are too few for that (an instance started on another stack), own_low is where
   no access can be: the helpers decide. */
#define OWN_SIZES 6  /* 1 to 32 bytes */
static Addr own_low = ~(Addr)0;
static Addr own_bound[OWN_SIZES];

void tr_memory_frames_moved(void)
{
   Addr top = tr_task_private_top, low = state.stack_bottom;
   Bool some = top >= low + 64;
   UInt k;
   own_low = some ? low : ~(Addr)0;
   for (k = 0; k < OWN_SIZES; k++) own_bound[k] = some ? top - low - (1u << k) : 0;
}

IRExpr* tr_memory_own_ir(IRSB* sb, IRExpr* addr, Int size)
{
   IRTemp low = newIRTemp(sb->tyenv, Ity_I64), bound = newIRTemp(sb->tyenv, Ity_I64);
   UInt k;
   for (k = 0; k < OWN_SIZES && (1 << k) != size; k++) {}
   if (k == OWN_SIZES) return IRExpr_Const(IRConst_U1(False));
   addStmtToIRSB(sb, IRStmt_WrTmp(low, IRExpr_Load(Iend_LE, Ity_I64,
                                                   mkIRExpr_HWord((HWord)&own_low))));
   addStmtToIRSB(sb, IRStmt_WrTmp(bound, IRExpr_Load(Iend_LE, Ity_I64,
                                                     mkIRExpr_HWord((HWord)&own_bound[k]))));
   return tr_ir_op(sb, Ity_I1, Iop_CmpLE64U,
                   tr_ir_op(sb, Ity_I64, Iop_Sub64, addr, IRExpr_RdTmp(low)), IRExpr_RdTmp(bound));
}

void tr_memory_potential(void) { state.potential = state.tracking = True; }

void tr_memory_pause(Bool paused)
{
   state.paused = paused;
   state.tracking = state.on && !paused;
}

/* ---- The stack ----------------------------------------------------------------------------- */

/* Below `dead`, the stack holds nothing alive: what its bytes held is forgotten (a later frame
   there does not depend on the task that wrote them), its objects die, and disabled ones go. */
static void stack_dies_below(Addr low, Addr dead)
{
   if (dead > low) tr_memory_forget(low, dead - low);
   tr_stack_rises(dead);
   tr_disabled_remove_from(state.stack_bottom, dead < state.stack_end ? dead : state.stack_end);
}

VG_REGPARM(3) void tr_memory_stack_rises(Addr old_sp, Addr new_sp, UWord returned)
{
   Addr low, dead;
   if (state.potential) {
      tr_potential_stack_rises(new_sp);
      return;
   }
   /* Only the traced thread's stack; a jump to another stack (a coroutine's) is no pop. */
   if (!state.on || VG_(get_running_tid)() != state.tid || old_sp < state.stack_bottom ||
       new_sp > state.stack_end)
      return;
   tr_stack_dead_range(old_sp, new_sp, returned, &low, &dead);
   stack_dies_below(low, dead);
   if (new_sp > tr_task_private_top && tr_task_private_top < tr_task_stack_top)
      tr_tasks_stack_rose(new_sp);
}

VG_REGPARM(3) void tr_memory_stack_allocated(Addr old_sp, Addr new_sp, Addr ip)
{
   ThreadId tid = VG_(get_running_tid)();
   if (state.potential) return;
   tr_stack_allocated(tid, new_sp, old_sp, ip, state.on && tid == state.tid);
}
