/* tr_stack.c — stack objects.

   Variables are found with VG_(get_data_description), which describes an address from the
   debug information of the innermost frames ("Location 0x... is 8 bytes inside local var
   "sum" ..., in frame #1 of thread 1"); a variable's extent is found by asking about the
   addresses around it, once, when it is first met. Memory the program allocates on the stack
   (alloca, variable-length arrays) is an object per allocation. Addresses the debug information
   does not describe (spill slots, saved registers, code without -g) belong to their frame's
   object, and are remembered per 8-byte granule so that they are described once. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_wordfm.h"
#include "pub_tool_xarray.h"

#include "tr_objects.h"
#include "tr_program.h"
#include "tr_stack.h"

#define MAX_FRAMES 32
#define MAX_EXTENT (1ul << 24) /* the largest variable whose extent is searched for */
#define GRANULE 8

/* Live objects by start address; `low` is the least start (for a cheap "nothing dies"). */
typedef struct {
   WordFM* map;
   Addr low;
} Live;

static Live variables = {NULL, ~(Addr)0};   /* start -> object id */
static Live frames = {NULL, ~(Addr)0};      /* start -> object id */
static Live undescribed = {NULL, ~(Addr)0}; /* granule -> the frame object it belongs to */

void tr_stack_init(void)
{
   variables.map = VG_(newFM)(VG_(malloc), "tareador.stack.vars", VG_(free), NULL);
   frames.map = VG_(newFM)(VG_(malloc), "tareador.stack.frames", VG_(free), NULL);
   undescribed.map = VG_(newFM)(VG_(malloc), "tareador.stack.undescribed", VG_(free), NULL);
}

static void add(Live* live, Addr key, UInt id)
{
   VG_(addToFM)(live->map, key, id);
   if (key < live->low) live->low = key;
}

/* The object in `live` whose extent holds `a`, or 0. */
static UInt find(const Live* live, Addr a)
{
   UWord key, id, max_key, max_id;
   const TrObject* o;
   if (!VG_(lookupFM)(live->map, &key, &id, a) &&
       !(VG_(findBoundsFM)(live->map, &key, &id, &max_key, &max_id, 0, 0, ~(UWord)0, 0, a) && id))
      return 0;
   o = tr_object((UInt)id);
   return o && a >= o->start && a < o->start + o->size ? (UInt)id : 0;
}

/* Removes the entries of `live` below `sp`; `objects`: they are objects, which die. */
static void die_below(Live* live, Addr sp, Bool objects)
{
   UWord key, id, keys[64];
   Int n, i;
   if (live->low >= sp) return;
   do {
      n = 0;
      VG_(initIterFM)(live->map);
      while (n < 64 && VG_(nextIterFM)(live->map, &key, &id) && key < sp) keys[n++] = key;
      VG_(doneIterFM)(live->map);
      for (i = 0; i < n; i++) {
         VG_(delFromFM)(live->map, NULL, &id, keys[i]);
         if (objects) tr_objects_died((UInt)id);
      }
   } while (n == 64);
   live->low = ~(Addr)0;
   VG_(initIterFM)(live->map);
   if (VG_(nextIterFM)(live->map, &key, &id)) live->low = key;
   VG_(doneIterFM)(live->map);
}

void tr_stack_rises(Addr sp)
{
   die_below(&variables, sp, True);
   die_below(&frames, sp, True);
   die_below(&undescribed, sp, False);
}

/* ---- Variables from the debug information ---------------------------------------------- */

typedef struct {
   HChar name[128];
   Int frame;          /* frame number of the description: the same variable in recursion
                          differs by it */
   Bool offset_known;  /* "N bytes inside local var": N is the offset into the variable */
   PtrdiffT offset;
} Description;

/* Describes stack address `a` as a local variable; False if the debug information does not. */
static Bool describe(Addr a, Description* d)
{
   static XArray* text1;
   static XArray* text2;
   const HChar* s;
   const HChar* frame;
   SizeT n = 0;
   Long offset;
   HChar* end;
   Bool xml, described;
   if (text1 == NULL) {
      text1 = VG_(newXA)(VG_(malloc), "tareador.stack.describe", VG_(free), sizeof(HChar));
      text2 = VG_(newXA)(VG_(malloc), "tareador.stack.describe", VG_(free), sizeof(HChar));
   }
   VG_(dropTailXA)(text1, VG_(sizeXA)(text1));
   VG_(dropTailXA)(text2, VG_(sizeXA)(text2));
   /* In XML mode valgrind does not print its warnings about location expressions it cannot
      evaluate (DW_OP_entry_value, common at -O2), which it would print at every lookup; the
      description then comes in XML tags, which the parsing below skips. */
   xml = VG_(clo_xml);
   VG_(clo_xml) = True;
   described = VG_(get_data_description)(text1, text2, VG_(current_DiEpoch)(), a);
   VG_(clo_xml) = xml;
   if (!described) return False;
   s = VG_(indexXA)(text1, 0);
   frame = VG_(strstr)((const HChar*)VG_(indexXA)(text2, 0), "in frame #");
   s = VG_(strstr)(s, " is ");
   if (s == NULL || frame == NULL) return False;  /* a global */
   offset = VG_(strtoll10)(s + 4, &end);
   s = VG_(strstr)(end, " inside ");
   if (s == NULL) return False;
   s += 8;
   d->offset_known = VG_(strncmp)(s, "local var \"", 11) == 0;
   if (d->offset_known) s += 11;
   while (s[n] && s[n] != '"' && s[n] != '[' && s[n] != '.' && s[n] != ',' && s[n] != ' ' &&
          s[n] != '<' && n + 1 < sizeof d->name) {
      d->name[n] = s[n];
      n++;
   }
   d->name[n] = 0;
   d->offset = (PtrdiffT)offset;
   d->frame = (Int)VG_(strtoll10)(frame + 10, &end);
   return n > 0;
}

static Bool same_variable(Addr a, const Description* d)
{
   Description other;
   return describe(a, &other) && other.frame == d->frame && VG_(strcmp)(other.name, d->name) == 0;
}

/* How far from `a` (described as `d`) the variable extends in direction `step` (+1, -1): the
   largest distance found inside it, by doubling then halving. */
static SizeT reach(Addr a, const Description* d, Long step)
{
   SizeT inside = 0, outside = 1;
   while (outside < MAX_EXTENT && same_variable(a + step * (Long)outside, d)) {
      inside = outside;
      outside *= 2;
   }
   while (outside - inside > 1) {
      SizeT middle = inside + (outside - inside) / 2;
      if (same_variable(a + step * (Long)middle, d)) inside = middle;
      else outside = middle;
   }
   return inside;
}

/* The base of frame `k` of the stack of `tid` (the stack pointer of its caller, above which
   its arguments passed on the stack lie), 0 past the frames known: the description's frame
   numbers are those of VG_(get_StackTrace). */
static Addr frame_base(ThreadId tid, Int k)
{
   Addr ips[MAX_FRAMES], sps[MAX_FRAMES];
   UInt n = VG_(get_StackTrace)(tid, ips, MAX_FRAMES, sps, NULL, 0);
   return k >= 0 && (UInt)k + 1 < n ? sps[k + 1] : 0;
}

static UInt new_variable(ThreadId tid, Addr a, const Description* d)
{
   Addr start = d->offset_known ? a - (Addr)d->offset : a - reach(a, d, -1);
   SizeT size = (SizeT)(a - start) + 1 + reach(a, d, 1);
   UInt id = tr_objects_new(TR_OBJ_STACK, start, size);
   tr_object(id)->name = VG_(strdup)("tareador.stack.name", d->name);
   tr_object(id)->home = frame_base(tid, d->frame);
   add(&variables, start, id);
   return id;
}

/* ---- Frames ------------------------------------------------------------------------------ */

/* The frame holding `a`: [*low, *high) and its function's name ("stack@NAME"). */
static void frame_of(ThreadId tid, Addr a, Addr* low, Addr* high, HChar* name, SizeT size)
{
   Addr ips[MAX_FRAMES], sps[MAX_FRAMES];
   UInt n = VG_(get_StackTrace)(tid, ips, MAX_FRAMES, sps, NULL, 0), i;
   const HChar* function = NULL;
   Addr sp = VG_(get_SP)(tid);
   /* The innermost frame from its stack pointer (or the red zone below it, if `a` is there):
      an object below the stack pointer dies at its next rise. */
   *low = a < sp ? a & ~(Addr)(GRANULE - 1) : sp;
   *high = VG_(thread_get_stack_max)(tid) + 1;
   for (i = 0; i < n; i++) {
      if (i + 1 < n && a >= sps[i + 1]) continue;
      if (i > 0) *low = sps[i];
      if (i + 1 < n) *high = sps[i + 1];
      if (!VG_(get_fnname)(VG_(current_DiEpoch)(), ips[i], &function)) function = NULL;
      break;
   }
   if (i == n) *low = n > 0 ? sps[n - 1] : *low;  /* deeper than MAX_FRAMES: the rest */
   VG_(snprintf)(name, size, "stack@%s", function ? function : "?");
}

static UInt frame_object(ThreadId tid, Addr a)
{
   HChar name[160];
   Addr low, high;
   UInt id = find(&frames, a);
   if (id) return id;
   frame_of(tid, a, &low, &high, name, sizeof name);
   id = tr_objects_new(TR_OBJ_STACK, low, high - low);
   tr_object(id)->name = VG_(strdup)("tareador.stack.name", name);
   tr_object(id)->frame = True;
   tr_object(id)->home = high;
   tr_object(id)->temporary = tr_program_variables_read();
   add(&frames, low, id);
   return id;
}

/* ---- Memory the program allocates on the stack -------------------------------------------- */

/* An alloca'd buffer or a variable-length array is not described by the debug information (its
   size is known at run time only), yet it holds the program's data: without an object of its
   own it would be its frame's, whose undescribed bytes are taken for compiler slots. Those
   allocated before tasks are traced wait here, the live ones of each thread (an allocation
   ends those below it: the stack has risen over them). */
#define MAX_WAITING 64

typedef struct {
   ThreadId tid;
   Addr start, end, ip;
} Allocation;

static Allocation waiting[MAX_WAITING];
static UInt n_waiting;

static void new_allocation(const Allocation* al)
{
   HChar where[160];
   UInt id = tr_objects_new(TR_OBJ_STACK, al->start, al->end - al->start);
   tr_objects_site_name(al->ip, where, sizeof where);
   tr_object(id)->name = VG_(malloc)("tareador.stack.name", sizeof where + 8);
   VG_(sprintf)(tr_object(id)->name, "alloca@%s", where);
   add(&variables, al->start, id);
}

void tr_stack_allocated(ThreadId tid, Addr start, Addr end, Addr ip, Bool traced)
{
   Allocation al = {tid, start, end, ip};
   UInt i, kept = 0;
   if (!tr_program_is_user_code(ip)) return;  /* a library's scratch */
   if (traced) {
      new_allocation(&al);
      return;
   }
   for (i = 0; i < n_waiting; i++)
      if (waiting[i].tid != tid || waiting[i].start >= end) waiting[kept++] = waiting[i];
   n_waiting = kept;
   if (n_waiting == MAX_WAITING) {  /* deeper than that: the outermost go */
      for (i = 1; i < n_waiting; i++) waiting[i - 1] = waiting[i];
      n_waiting--;
   }
   waiting[n_waiting++] = al;
}

void tr_stack_traced(ThreadId tid, Addr sp)
{
   UInt i;
   for (i = 0; i < n_waiting; i++)
      if (waiting[i].tid == tid && waiting[i].start >= sp) new_allocation(&waiting[i]);
   n_waiting = 0;
}

/* ---- Lookup ------------------------------------------------------------------------------ */

UInt tr_stack_object_at(ThreadId tid, Addr a)
{
   Description d;
   UWord id;
   Addr granule = a & ~(Addr)(GRANULE - 1);
   UInt found = find(&variables, a);
   if (found) return found;
   if (VG_(lookupFM)(undescribed.map, NULL, &id, granule) && tr_object((UInt)id) &&
       !tr_object((UInt)id)->dead)
      return (UInt)id;
   if (describe(a, &d)) return new_variable(tid, a, &d);
   found = frame_object(tid, a);
   add(&undescribed, granule, found);
   return found;
}

UInt tr_stack_variable_at(ThreadId tid, Addr a)
{
   Description d;
   HChar name[160];
   Addr low, high;
   UInt id = find(&variables, a);
   if (id) return id;
   if (describe(a, &d)) return new_variable(tid, a, &d);
   frame_of(tid, a, &low, &high, name, sizeof name);
   id = tr_objects_new(TR_OBJ_STACK, a, TR_STACK_DEFAULT_EXTENT);
   tr_object(id)->name = VG_(malloc)("tareador.stack.name", sizeof name + 24);
   VG_(sprintf)(tr_object(id)->name, "%s+%lu", name, a - low);
   add(&variables, a, id);
   return id;
}
