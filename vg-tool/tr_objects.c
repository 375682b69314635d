/* tr_objects.c — the pool of memory objects. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_wordfm.h"
#include "libvex_guest_amd64.h"

#include "tr_objects.h"
#include "tr_program.h"
#include "tr_stack.h"
#include "tr_tasks.h"
#include "tr_threadcomm.h"

void (*tr_objects_on_block)(Addr start, SizeT size, TrBlockEvent event);

/* Objects are never removed (dependencies name them after they die); id 0 means none. */
static TrObject* objects;
static UInt n_objects = 1, max_objects;
static WordFM* heap_blocks;    /* start -> id, live blocks */
static WordFM* globals;        /* start -> id */
static WordFM* other_regions;  /* start -> id, unnamed memory */

UInt tr_objects_new(TrObjectKind kind, Addr start, SizeT size)
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

TrObjectCache tr_object_cache[TR_OBJECT_CACHED];

/* Object `id` is no longer an answer of tr_object_at without a lookup (it died). */
static void forget_cached(UInt id)
{
   static const TrObjectCache nothing;
   UInt i;
   for (i = 0; i < TR_OBJECT_CACHED; i++)
      if (tr_object_cache[i].id == id) tr_object_cache[i] = nothing;
}

void tr_objects_died(UInt id)
{
   if (tr_object(id)) objects[id].dead = True;
   forget_cached(id);
}

/* ---- The heap: malloc and friends, replaced ------------------------------------------------ */

#define SITE_FRAMES 32

/* Whether the runtime-library function at `ip` allocates for the program: std::string's
   members, which libstdc++ holds compiled (a string's characters are the program's data, as a
   vector's elements are). */
static Bool allocates_for_program(Addr ip)
{
   const HChar* function;
   return VG_(get_fnname)(VG_(current_DiEpoch)(), ip, &function) &&
          VG_(strstr)(function, "basic_string") != NULL;
}

/* The allocating call in the program's own code (the first frame that is, below the
   allocator), and the function it called. A block the C runtime allocated for itself, deep
   below the function the program called (printf's buffer), is that library's memory. */
static void find_site(ThreadId tid, TrObject* o)
{
   Addr ips[SITE_FRAMES], sps[SITE_FRAMES];
   UInt n = VG_(get_StackTrace)(tid, ips, SITE_FRAMES, sps, NULL, 0), i;
   for (i = 1; i < n; i++)
      if (tr_program_is_user_code(ips[i])) {
         o->site = ips[i];
         o->site_sp = sps[i];
         o->via = ips[i - 1];
         if (i > 2 && tr_program_is_runtime_library(o->via) && !allocates_for_program(o->via)) {
            o->kind = TR_OBJ_LIBRARY;
            o->runtime = True;
         }
         return;
      }
   o->via = n > 1 ? ips[1] : 0;
}

/* A block freed by library code before the call that allocated it returned (qsort's scratch)
   was that library's own: the allocating call, a frame at site_sp returning to site, is still on
   the stack (a std::string freed by its destructor, in the library, long after the call that
   allocated it returned, is the program's). */
static void check_scratch(ThreadId tid, TrObject* o)
{
   Addr ips[SITE_FRAMES], sps[SITE_FRAMES];
   UInt n, i;
   if (o->site_sp == 0 || VG_(get_SP)(tid) >= o->site_sp) return;
   n = VG_(get_StackTrace)(tid, ips, SITE_FRAMES, sps, NULL, 0);
   if (n < 2 || tr_program_is_user_code(ips[1])) return;
   for (i = 1; i < n && sps[i] <= o->site_sp; i++)
      if (sps[i] == o->site_sp && ips[i] == o->site) {
         o->kind = TR_OBJ_LIBRARY;
         o->runtime = tr_program_is_runtime_library(ips[1]);
         return;
      }
}

static Bool mpi_initialising;

void tr_objects_mpi_allocates(Bool initialising) { mpi_initialising = initialising; }

static void* new_block(ThreadId tid, SizeT size, SizeT align)
{
   void* p = VG_(cli_malloc)(align, size);
   UInt id;
   if (p == NULL) return NULL;
   if (tr_objects_on_block) tr_objects_on_block((Addr)p, size, TR_BLOCK_NEW);
   if (mpi_initialising) return p;
   id = tr_objects_new(TR_OBJ_HEAP, (Addr)p, size);
   objects[id].born_in = tr_task_current;
   find_site(tid, &objects[id]);
   VG_(addToFM)(heap_blocks, (UWord)p, id);
   return p;
}

/* A block MPI_Init allocated is not in heap_blocks: its usable size is the allocator's. */
static SizeT block_size(void* p)
{
   UWord id;
   return VG_(lookupFM)(heap_blocks, NULL, &id, (UWord)p) ? objects[id].size
                                                          : VG_(cli_malloc_usable_size)(p);
}

static void free_block(ThreadId tid, void* p)
{
   UWord id;
   if (p == NULL) return;
   if (VG_(lookupFM)(heap_blocks, NULL, &id, (UWord)p)) {
      /* Freeing is the block's last use, told while the block is still known. */
      if (tr_objects_on_block)
         tr_objects_on_block(objects[id].start, objects[id].size, TR_BLOCK_FREED);
      VG_(delFromFM)(heap_blocks, NULL, NULL, (UWord)p);
      objects[id].dead = True;
      objects[id].freed_inside = objects[id].born_in != 0 && tr_task_is_open(objects[id].born_in);
      if (objects[id].freed_inside) tr_tasks_temporary(objects[id].born_in, (UInt)id);
      forget_cached((UInt)id);
      check_scratch(tid, &objects[id]);
   }
   if (tr_threadcomm_enabled()) tr_threadcomm_forget((Addr)p, block_size(p));
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

static void* tr_realloc(ThreadId tid, void* p, SizeT size)
{
   void* q;
   SizeT old;
   UWord id;
   UInt disabled;
   if (p == NULL) return tr_malloc(tid, size);
   if (size == 0) {
      free_block(tid, p);
      return NULL;
   }
   q = tr_malloc(tid, size);
   if (q == NULL) return NULL;
   disabled = VG_(lookupFM)(heap_blocks, NULL, &id, (UWord)p) ? objects[id].disabled : 0;
   old = block_size(p);
   if (old > size) old = size;
   VG_(memcpy)(q, p, old);
   if (tr_objects_on_block) {
      tr_objects_on_block((Addr)p, old, TR_BLOCK_READ);
      tr_objects_on_block((Addr)q, old, TR_BLOCK_WRITTEN);
   }
   free_block(tid, p);
   if (disabled && VG_(lookupFM)(heap_blocks, NULL, &id, (UWord)q)) {
      objects[id].disabled = disabled;
      if (tr_objects_on_block) tr_objects_on_block((Addr)q, objects[id].size, TR_BLOCK_DISABLED);
   }
   return q;
}

static SizeT tr_usable_size(ThreadId tid, void* p) { return block_size(p); }

/* Valgrind's --soname-synonyms, which the tool interface does not show. */
extern const HChar* VG_(clo_soname_synonyms);

void tr_objects_pre_clo_init(void)
{
   VG_(needs_malloc_replacement)(tr_malloc, tr_malloc, tr_new_aligned, tr_malloc, tr_new_aligned,
                                 tr_memalign, tr_calloc, tr_free, tr_free, tr_free_aligned,
                                 tr_free, tr_free_aligned, tr_realloc, tr_usable_size, 0);
   /* The replacement follows the allocators of the C library and of libstdc++. Valgrind would
      also match a third of its functions against every symbol of every object loaded (the
      "somalloc" synonym, "*" unless given), in case an allocator is linked in elsewhere: a
      third of the start-up's matching. By default here that synonym is an empty pattern, which
      matches no object; the option, read after this, names one as valgrind documents
      (--soname-synonyms=somalloc=*tcmalloc*, or NONE for an allocator linked into the program). */
   VG_(clo_soname_synonyms) = "somalloc=";
   heap_blocks = VG_(newFM)(VG_(malloc), "tareador.heap", VG_(free), NULL);
   globals = VG_(newFM)(VG_(malloc), "tareador.globals", VG_(free), NULL);
   other_regions = VG_(newFM)(VG_(malloc), "tareador.other", VG_(free), NULL);
   tr_stack_init();
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

/* What memory at `a` is, when it is not the heap or the stack: constants (read-only memory of
   a file, the linker's tables), a library's, or the program's own (`own`: a global when a
   symbol names it). */
static TrObjectKind kind_of_memory(Addr a, TrObjectKind own)
{
   NSegment const* segment = VG_(am_find_nsegment)(a);
   if ((segment && segment->kind == SkFileC && !segment->hasW) || tr_program_in_linker_tables(a))
      return TR_OBJ_CONST;
   if (tr_program_in_object(a) && !tr_program_owns(a)) return TR_OBJ_LIBRARY;
   return own;
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
      id = tr_objects_new(kind_of_memory(a, TR_OBJ_GLOBAL), start, symbol_size(start, name));
      objects[id].name = VG_(strdup)("tareador.global", name);
      objects[id].runtime = objects[id].kind == TR_OBJ_LIBRARY && tr_program_is_runtime_library(a);
      VG_(addToFM)(globals, start, id);
   }
   return (UInt)id;
}

#define REGION_BITS 20

/* Whether `segment` holds the thread's TLS (its thread pointer is in it): the C library's
   thread-local state (errno, the locale) is there. */
static Bool holds_tls(ThreadId tid, NSegment const* segment)
{
   ULong fs = 0;
   VG_(get_shadow_regs_area)(tid, (UChar*)&fs, 0, offsetof(VexGuestAMD64State, guest_FS_CONST),
                             sizeof fs);
   return segment && segment->kind == SkAnonC && fs >= segment->start && fs <= segment->end;
}

/* Unnamed memory: one object per 1 MB region of a mapping. */
static UInt region_at(ThreadId tid, Addr a)
{
   NSegment const* segment = VG_(am_find_nsegment)(a);
   Addr start = a >> REGION_BITS << REGION_BITS, end = start + (1ul << REGION_BITS);
   UWord key, id;
   if (segment && segment->start > start) start = segment->start;
   if (segment && segment->end + 1 < end) end = segment->end + 1;
   if (floor_entry(other_regions, a, &key, &id) && a < key + objects[id].size) return (UInt)id;
   id = tr_objects_new(kind_of_memory(a, TR_OBJ_OTHER), start, end - start);
   objects[id].first_access = a;
   objects[id].runtime = objects[id].kind == TR_OBJ_LIBRARY && tr_program_is_runtime_library(a);
   if (holds_tls(tid, segment)) {
      objects[id].kind = TR_OBJ_LIBRARY;
      objects[id].runtime = True;
      objects[id].name = VG_(strdup)("tareador.name", "thread-local-storage");
   }
   VG_(addToFM)(other_regions, start, id);
   return (UInt)id;
}

static Bool on_stack(ThreadId tid, Addr a)
{
   return a + 128 >= VG_(get_SP)(tid) && a < VG_(thread_get_stack_max)(tid);
}

static UInt lookup(ThreadId tid, Addr a)
{
   UWord start, id;
   if (on_stack(tid, a)) return tr_stack_object_at(tid, a);
   if (floor_entry(heap_blocks, a, &start, &id) && a < start + objects[id].size) return (UInt)id;
   if (floor_entry(globals, a, &start, &id) && a < start + objects[id].size) return (UInt)id;
   id = global_at(a);
   return id ? (UInt)id : region_at(tid, a);
}

UInt tr_object_lookup(ThreadId tid, Addr a)
{
   UInt id = lookup(tid, a);
   const TrObject* o = tr_object(id);
   UInt i;
   if (o && !o->dead && !o->frame && o->kind != TR_OBJ_OTHER && o->first_access == 0) {
      for (i = TR_OBJECT_CACHED - 1; i > 0; i--) tr_object_cache[i] = tr_object_cache[i - 1];
      tr_object_cache[0].start = o->start;
      tr_object_cache[0].end = o->start + o->size;
      tr_object_cache[0].id = id;
   }
   return id;
}

UInt tr_object_of_variable(ThreadId tid, Addr a)
{
   return on_stack(tid, a) ? tr_stack_variable_at(tid, a) : tr_object_at(tid, a);
}

/* ---- Names ---------------------------------------------------------------------------------- */

/* A function's name as short as it stays meaningful: no parameters, no namespaces, template
   arguments as <...>; a constructor is its class (vector<...>), a method of a class template
   keeps its class (vector<...>::push_back), operator new is new. */
static void short_function_name(const HChar* full, HChar* out, SizeT size)
{
   HChar name[256];
   SizeT n = 0, i, depth = 0, last = 0, previous = 0, base;
   for (i = 0; full[i] && n + 6 < sizeof name; i++) {
      HChar c = full[i];
      if (c == '(' && depth == 0 && i > 0) break;
      if (c == '<' && VG_(strstr)(full, "operator<") != full + i - 8) {
         if (depth++ == 0) {
            VG_(strcpy)(name + n, "<...>");
            n += 5;
         }
      } else if (c == '>' && depth > 0) {
         depth--;
      } else if (depth == 0) {
         if (c == ':' && full[i + 1] == ':') {
            previous = last;
            last = n + 2;
         }
         name[n++] = c;
      }
   }
   name[n] = 0;
   /* name[previous..last-2) is the class (if any), name[last..] the function. */
   if (last > 0) {
      for (base = previous; base < last - 2 && name[base] != '<'; base++) {}
      if (base - previous == VG_(strlen)(name + last) &&
          VG_(strncmp)(name + previous, name + last, base - previous) == 0) {
         name[last - 2] = 0;
         VG_(snprintf)(out, size, "%s", name + previous);
         return;
      }
      if (last >= 3 && name[last - 3] == '>') {
         VG_(snprintf)(out, size, "%s", name + previous);
         return;
      }
   }
   if (VG_(strncmp)(name + last, "operator new", 12) == 0) last += 9;
   VG_(snprintf)(out, size, "%s", name + last);
}

void tr_objects_site_name(Addr ip, HChar* out, SizeT size)
{
   const HChar* file;
   const HChar* function;
   UInt line;
   if (tr_program_is_inlined_library_code(ip) &&
       VG_(get_fnname)(VG_(current_DiEpoch)(), ip, &function))
      VG_(snprintf)(out, size, "%s", function);
   else if (VG_(get_filename_linenum)(VG_(current_DiEpoch)(), ip, &file, NULL, &line))
      VG_(snprintf)(out, size, "%s:%u", VG_(basename)(file), line);
   else if (VG_(get_fnname)(VG_(current_DiEpoch)(), ip, &function))
      VG_(snprintf)(out, size, "%s", function);
   else
      VG_(snprintf)(out, size, "%#lx", ip);
}

/* A heap block: what allocated it, where in the program (vector<...>@main.cpp:41,
   malloc@dot.c:20); or which library allocated it on its own (fftwf_malloc@libfftw3f.so.3). */
static void heap_name(const TrObject* o, HChar* out, SizeT size)
{
   const HChar* function = NULL;
   const HChar* file = NULL;
   HChar what[128] = "heap", where[160];
   if (o->via && VG_(get_fnname)(VG_(current_DiEpoch)(), o->via, &function))
      short_function_name(function, what, sizeof what);
   if (o->site) {
      tr_objects_site_name(o->site, where, sizeof where);
   } else {
      VG_(get_objname)(VG_(current_DiEpoch)(), o->via, &file);
      VG_(snprintf)(where, sizeof where, "%s", file ? VG_(basename)(file) : "?");
   }
   VG_(snprintf)(out, size, "%s@%s", what, where);
}

const HChar* tr_object_name(UInt id)
{
   TrObject* o = tr_object(id);
   HChar buffer[320];
   if (o == NULL) return "?";
   if (o->name) return o->name;
   if (o->site || o->via) {  /* a heap block */
      heap_name(o, buffer, sizeof buffer);
   } else {
      /* Unnamed memory in a loaded object (its constants, say) says which object. */
      NSegment const* segment = VG_(am_find_nsegment)(o->first_access);
      const HChar* file = segment ? VG_(am_get_filename)(segment) : NULL;
      if (file && *file)
         VG_(snprintf)(buffer, sizeof buffer, "memory@%#lx(%s)", o->start, VG_(basename)(file));
      else
         VG_(snprintf)(buffer, sizeof buffer, "memory@%#lx", o->start);
   }
   o->name = VG_(strdup)("tareador.name", buffer);
   return o->name;
}
