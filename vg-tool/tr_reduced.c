/* tr_reduced.c — the instances that updated an object while it was disabled (a reduction), and
   the bytes each updated, since other writes replaced them (tr_reduced.h). They do not depend on
   one another, but an instance that then reads those bytes reads what they all added up: it
   depends on each (read-after-write), and waits there for those it created, as it would for
   their result with a reduction or a taskwait. The shadow memory marks the bytes updated
   (TR_REDUCED) and hands over whom they named before: the instance that wrote what the updates
   add to (a reader depends on it as well) and, with write-after-read, those that read the bytes
   before an update (an instance that overwrites them depends on those). */

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_mallocfree.h"

#include "tr_reduced.h"
#include "tr_tasks.h"

static VgHashTable* reduced;  /* Reduced, by object */
static UInt dep_kinds;        /* the dependencies sought (TrDepKind bits) */

void tr_reduced_begin(UInt kinds)
{
   if (reduced == NULL) reduced = VG_(HT_construct)("tareador.reduced");
   dep_kinds = kinds;
}

typedef struct {
   UInt id;
   Bool wrote;  /* updated the bytes, or wrote them before; else read them before an update */
   Addr low, high;
} Updater;

typedef struct Reduced {
   struct Reduced* next;
   UWord object;  /* the hash table's key */
   Updater* updaters;
   UInt n_updaters, max_updaters;
   /* The last access's (a read, or an overwrite: `seen_overwrite`): by which instance (0: none
      since the updaters changed), the bytes around it that the same updaters it depends on
      cover, and those: a loop over an array whose blocks many tasks updated looks at the
      updaters once a block, not once an element. */
   UInt seen_by;
   Bool seen_overwrite;
   Addr seen_low, seen_high;
   struct Seen {
      UInt from;
      TrDepKind kind;
   } * seen;
   UInt n_seen, max_seen;
   /* Bytes overwritten and not forgotten yet, [forget_low, forget_high): a loop that sets such
      an array forgets a run of it at once. No read sees them (they are no longer marked), and
      the updaters change only after they are forgotten. */
   Addr forget_low, forget_high;
} Reduced;

static void forget_overwritten(Reduced* r);

static void append_updater(Reduced* r, Updater u)
{
   if (r->n_updaters == r->max_updaters) {
      r->max_updaters = r->max_updaters ? 2 * r->max_updaters : 16;
      r->updaters =
         VG_(realloc)("tareador.reduced", r->updaters, r->max_updaters * sizeof(Updater));
   }
   r->updaters[r->n_updaters++] = u;
}

static void add_updater(UInt object, UInt id, Bool wrote, Addr a, SizeT n)
{
   Reduced* r = VG_(HT_lookup)(reduced, object);
   Updater* last;
   Updater u = {id, wrote, a, a + n};
   if (r == NULL) {
      r = VG_(calloc)("tareador.reduced", 1, sizeof(Reduced));
      r->object = object;
      VG_(HT_add_node)(reduced, r);
   }
   forget_overwritten(r);
   r->seen_by = 0;
   last = r->n_updaters > 0 ? &r->updaters[r->n_updaters - 1] : NULL;
   if (last && last->id == id && last->wrote == wrote) {
      if (a < last->low) last->low = a;
      if (a + n > last->high) last->high = a + n;
      return;
   }
   append_updater(r, u);
}

void tr_reduced_from(UInt object, UInt id, Addr a, SizeT n, Bool wrote)
{
   add_updater(object, id, wrote, a, n);
}

/* A read (or an overwrite: `overwrite`) of [a, a+n) by instance `id`: it depends on each
   updater of those bytes (read-after-write; or write-after-write, and write-after-read on those
   that read them before an update, when sought), and remembers them with the bytes around that
   they all cover, where no other updater begins or ends. */
static void depend_on_updaters(Reduced* r, UInt object, UInt id, Addr a, SizeT n, Bool overwrite)
{
   Addr around_low = 0, around_high = ~(Addr)0;
   UInt i;
   if (r->seen_by == id && r->seen_overwrite == overwrite && r->seen_low <= a &&
       a + n <= r->seen_high) {
      for (i = 0; i < r->n_seen; i++) tr_tasks_depends(r->seen[i].from, r->seen[i].kind, object, n);
      return;
   }
   r->n_seen = 0;
   for (i = 0; i < r->n_updaters; i++) {
      const Updater* u = &r->updaters[i];
      Addr low = u->low > a ? u->low : a, high = u->high < a + n ? u->high : a + n;
      TrDepKind kind = !overwrite ? TR_DEP_RAW : u->wrote ? TR_DEP_WAW : TR_DEP_WAR;
      if ((!overwrite && !u->wrote) || !(dep_kinds & kind) || u->id == id ||
          tr_task_is_open(u->id))
         continue;
      if (u->high <= a) {
         if (u->high > around_low) around_low = u->high;
      } else if (u->low >= a + n) {
         if (u->low < around_high) around_high = u->low;
      } else {
         tr_tasks_depends(u->id, kind, object, high - low);
         if (u->low > around_low) around_low = u->low;
         if (u->high < around_high) around_high = u->high;
         if (r->n_seen == r->max_seen) {
            r->max_seen = r->max_seen ? 2 * r->max_seen : 16;
            r->seen = VG_(realloc)("tareador.reduced", r->seen, r->max_seen * sizeof(struct Seen));
         }
         r->seen[r->n_seen].from = u->id;
         r->seen[r->n_seen++].kind = kind;
      }
   }
   /* (Not when an updater's bytes begin or end inside the access: then the next ones differ.) */
   r->seen_by = around_low <= a && a + n <= around_high ? id : 0;
   r->seen_overwrite = overwrite;
   r->seen_low = around_low;
   r->seen_high = around_high;
}

/* What the bytes overwritten were is no longer the updaters': each keeps its bytes below and
   above them. */
static void forget_overwritten(Reduced* r)
{
   Addr a = r->forget_low, end = r->forget_high;
   UInt i, kept = 0, count = r->n_updaters;
   if (a == end) return;
   r->forget_low = r->forget_high = 0;
   r->seen_by = 0;
   for (i = 0; i < count; i++) {
      Updater u = r->updaters[i];
      if (u.high <= a || end <= u.low) {
         if (kept < i) r->updaters[kept] = u;
         kept++;
         continue;
      }
      if (u.low < a && end < u.high) {
         Updater above = u;
         above.low = end;
         append_updater(r, above);
      }
      if (u.low < a) u.high = a;
      else if (end < u.high) u.low = end;
      else continue;
      r->updaters[kept++] = u;
   }
   for (i = count; i < r->n_updaters; i++) r->updaters[kept++] = r->updaters[i];
   r->n_updaters = kept;
}

void tr_reduced_accessed(UInt object, Addr a, SizeT n, Bool overwritten)
{
   Reduced* r = VG_(HT_lookup)(reduced, object);
   if (r == NULL) return;
   if (!overwritten || (dep_kinds & (TR_DEP_WAW | TR_DEP_WAR)))
      depend_on_updaters(r, object, tr_task_current, a, n, overwritten);
   if (!overwritten) return;
   if (r->forget_low < r->forget_high && (a == r->forget_high || a + n == r->forget_low)) {
      if (a < r->forget_low) r->forget_low = a;
      if (a + n > r->forget_high) r->forget_high = a + n;
      return;
   }
   forget_overwritten(r);
   r->forget_low = a;
   r->forget_high = a + n;
}
