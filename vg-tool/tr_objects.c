/* tr_objects.c — the pool of memory objects. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_execontext.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_wordfm.h"

#include "tr_objects.h"

void (*tr_objects_on_block)(Addr start, SizeT size);

/* Objects are never removed (dependencies name them after a free); id 0 means none. */
static TrObject* objects;
static UInt n_objects = 1, max_objects;
static WordFM* heap_blocks;    /* start -> id, live blocks */
static WordFM* globals;        /* start -> id */
static WordFM* other_regions;  /* 1 MB region -> id */
static UInt* stacks;           /* per thread */
static ULong heap_serial;

static UInt new_object(TrObjectKind kind, Addr start, SizeT size)
{
   if (n_objects >= max_objects) {
      max_objects = max_objects ? 2 * max_objects : 1024;
      objects = VG_(realloc)("tareador.objects", objects, max_objects * sizeof(TrObject));
   }
   VG_(memset)(&objects[n_objects], 0, sizeof(TrObject));
   objects[n_objects].kind = kind;
   objects[n_objects].start = start;
   objects[n_objects].size = size;
   return n_objects++;
}

TrObject* tr_object(UInt id) { return id > 0 && id < n_objects ? &objects[id] : NULL; }

/* ---- The heap: malloc and friends, replaced ------------------------------------------------ */

static void* new_block(ThreadId tid, SizeT size, SizeT align)
{
   void* p = VG_(cli_malloc)(align, size);
   UInt id;
   if (p == NULL) return NULL;
   id = new_object(TR_OBJ_HEAP, (Addr)p, size);
   objects[id].serial = ++heap_serial;
   objects[id].where = VG_(record_ExeContext)(tid, 0);
   VG_(addToFM)(heap_blocks, (UWord)p, id);
   if (tr_objects_on_block) tr_objects_on_block((Addr)p, size);
   return p;
}

static void free_block(ThreadId tid, void* p)
{
   UWord id;
   if (p == NULL) return;
   if (VG_(delFromFM)(heap_blocks, NULL, &id, (UWord)p)) {
      objects[id].freed = True;
      if (tr_objects_on_block) tr_objects_on_block(objects[id].start, objects[id].size);
   }
   VG_(cli_free)(p);
}

static void* tr_malloc(ThreadId tid, SizeT n) { return new_block(tid, n, VG_(clo_alignment)); }
static void* tr_new_aligned(ThreadId tid, SizeT n, SizeT align) { return new_block(tid, n, align); }
static void* tr_memalign(ThreadId tid, SizeT align, SizeT n) { return new_block(tid, n, align); }
static void* tr_calloc(ThreadId tid, SizeT count, SizeT size)
{
   SizeT bytes = count * size;
   void* p;
   if (size != 0 && bytes / size != count) return NULL;
   p = new_block(tid, bytes, VG_(clo_alignment));
   if (p) VG_(memset)(p, 0, bytes);
   return p;
}
static void tr_free(ThreadId tid, void* p) { free_block(tid, p); }
static void tr_free_aligned(ThreadId tid, void* p, SizeT align) { free_block(tid, p); }

static SizeT block_size(void* p)
{
   UWord id;
   return VG_(lookupFM)(heap_blocks, NULL, &id, (UWord)p) ? objects[id].size : 0;
}

static void* tr_realloc(ThreadId tid, void* p, SizeT size)
{
   void* q;
   SizeT old;
   if (p == NULL) return tr_malloc(tid, size);
   if (size == 0) {
      free_block(tid, p);
      return NULL;
   }
   q = tr_malloc(tid, size);
   if (q == NULL) return NULL;
   old = block_size(p);
   VG_(memcpy)(q, p, old < size ? old : size);
   free_block(tid, p);
   return q;
}

static SizeT tr_usable_size(ThreadId tid, void* p) { return block_size(p); }

void tr_objects_pre_clo_init(void)
{
   VG_(needs_malloc_replacement)(tr_malloc, tr_malloc, tr_new_aligned, tr_malloc, tr_new_aligned,
                                 tr_memalign, tr_calloc, tr_free, tr_free, tr_free_aligned,
                                 tr_free, tr_free_aligned, tr_realloc, tr_usable_size, 0);
   heap_blocks = VG_(newFM)(VG_(malloc), "tareador.heap", VG_(free), NULL);
   globals = VG_(newFM)(VG_(malloc), "tareador.globals", VG_(free), NULL);
   other_regions = VG_(newFM)(VG_(malloc), "tareador.other", VG_(free), NULL);
}

/* ---- Lookup --------------------------------------------------------------------------------- */

/* The entry of `fm` with the greatest key <= `a`. */
static Bool floor_entry(WordFM* fm, Addr a, UWord* key, UWord* id)
{
   UWord max_key, max_id;
   if (VG_(lookupFM)(fm, key, id, a)) return True;
   /* Without an entry below `a`, findBoundsFM gives the bounds passed in: id 0, never an object. */
   return VG_(findBoundsFM)(fm, key, id, &max_key, &max_id, 0, 0, ~(UWord)0, 0, a) && *id != 0;
}

static UInt stack_object(ThreadId tid)
{
   if (stacks == NULL) stacks = VG_(calloc)("tareador.stacks", VG_N_THREADS, sizeof(UInt));
   if (stacks[tid] == 0) stacks[tid] = new_object(TR_OBJ_STACK, 0, 0);
   return stacks[tid];
}

/* Whether `a` is `offset` bytes into the data symbol `name`. */
static Bool in_symbol(Addr a, const HChar* name, PtrdiffT offset)
{
   const HChar* found;
   PtrdiffT at;
   return VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(), a, &found, &at) && at == offset &&
          VG_(strcmp)(found, name) == 0;
}

/* The size of the data symbol `name` at `start`: debug info answers "which symbol holds this
   address" only, so the end is searched for (doubling, then halving). */
static SizeT symbol_size(Addr start, const HChar* name)
{
   SizeT inside = 1, outside = 2;
   while (outside < (1ul << 40) && in_symbol(start + outside - 1, name, outside - 1)) {
      inside = outside;
      outside *= 2;
   }
   while (outside - inside > 1) {
      SizeT middle = inside + (outside - inside) / 2;
      if (in_symbol(start + middle - 1, name, middle - 1)) inside = middle;
      else outside = middle;
   }
   return inside;
}

/* A global or static: debug info names the symbol holding `a`. */
static UInt global_at(Addr a)
{
   const HChar* name;
   PtrdiffT offset;
   UWord start, id;
   if (!VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(), a, &name, &offset)) return 0;
   start = a - offset;
   if (!VG_(lookupFM)(globals, NULL, &id, start)) {
      id = new_object(TR_OBJ_GLOBAL, start, symbol_size(start, name));
      objects[id].name = VG_(strdup)("tareador.global", name);
      VG_(addToFM)(globals, start, id);
   }
   return (UInt)id;
}

#define REGION_BITS 20

static UInt lookup(ThreadId tid, Addr a)
{
   UWord start, id;
   Addr sp = VG_(get_SP)(tid);
   if (a + 128 >= sp && a < VG_(thread_get_stack_max)(tid)) return stack_object(tid);
   if (floor_entry(heap_blocks, a, &start, &id) && a < start + objects[id].size) return (UInt)id;
   if (floor_entry(globals, a, &start, &id) && a < start + objects[id].size) return (UInt)id;
   id = global_at(a);
   if (id) return (UInt)id;
   start = a >> REGION_BITS << REGION_BITS;
   if (!VG_(lookupFM)(other_regions, NULL, &id, start)) {
      id = new_object(TR_OBJ_OTHER, start, 1ul << REGION_BITS);
      objects[id].first_access = a;
      VG_(addToFM)(other_regions, start, id);
   }
   return (UInt)id;
}

UInt tr_object_at(ThreadId tid, Addr a)
{
   static UInt cached;
   TrObject* o = tr_object(cached);
   /* Only named objects are cached: a stack moves, and an `other` region may hold a global
      not met yet. */
   if (o && !o->freed && (o->kind == TR_OBJ_HEAP || o->kind == TR_OBJ_GLOBAL) && a >= o->start &&
       a < o->start + o->size)
      return cached;
   cached = lookup(tid, a);
   return cached;
}

/* ---- Names ---------------------------------------------------------------------------------- */

/* The first frame of an allocation that is not the allocator itself. */
static void note_frame(UInt n, DiEpoch ep, Addr ip, void* frames)
{
   if (n < 2) ((Addr*)frames)[n] = ip;
}

const HChar* tr_object_name(UInt id)
{
   TrObject* o = tr_object(id);
   HChar buffer[256];
   if (o == NULL) return "?";
   if (o->name) return o->name;
   switch (o->kind) {
      case TR_OBJ_HEAP: {
         Addr frames[2] = {0, 0};
         const HChar* file = NULL;
         UInt line = 0;
         VG_(apply_ExeContext)(note_frame, frames, o->where);
         if (frames[1] && VG_(get_filename_linenum)(VG_(current_DiEpoch)(), frames[1], &file, NULL, &line))
            VG_(snprintf)(buffer, sizeof buffer, "heap#%llu@%s:%u", o->serial, file, line);
         else
            VG_(snprintf)(buffer, sizeof buffer, "heap#%llu", o->serial);
         break;
      }
      case TR_OBJ_STACK: VG_(snprintf)(buffer, sizeof buffer, "stack"); break;
      default: {
         /* Unnamed memory in a loaded object (its constants, say) says which object. */
         NSegment const* segment = VG_(am_find_nsegment)(o->first_access);
         const HChar* file = segment ? VG_(am_get_filename)(segment) : NULL;
         const HChar* base = file ? VG_(strrchr)(file, '/') : NULL;
         base = base ? base + 1 : file;
         if (base && *base)
            VG_(snprintf)(buffer, sizeof buffer, "memory@%#lx(%s)", o->start, base);
         else
            VG_(snprintf)(buffer, sizeof buffer, "memory@%#lx", o->start);
         break;
      }
   }
   o->name = VG_(strdup)("tareador.name", buffer);
   return o->name;
}
