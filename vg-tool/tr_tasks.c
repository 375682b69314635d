/* tr_tasks.c — task instances and the `tasks` stream.

   Instances are numbered in creation order; the main task is instance 1. While an instance runs
   its records are kept in memory (as structures, not text: a receive of unknown source is
   patched when it completes, and dependencies found later are placed in front), and written as
   one section when it ends. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_machine.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "tr_client.h"
#include "tr_count.h"
#include "tr_disabled.h"
#include "tr_memory.h"
#include "tr_objects.h"
#include "tr_reduced.h"
#include "tr_tasks.h"
#include "tr_text.h"
#include "tr_trace.h"


UInt tr_task_current;
UChar* tr_task_open_flags;
Addr tr_task_stack_top;
Addr tr_task_private_top;

typedef enum { REC_CPU, REC_MPI, REC_SPAWN, REC_AFTER } RecordKind;

typedef struct {
   RecordKind kind;
   ULong value;     /* REC_CPU: instructions; REC_SPAWN, REC_AFTER: an instance */
   Addr site;       /* REC_SPAWN: where, in the instance's own function, the child was made */
   TrEvent event;   /* REC_MPI */
} Record;

/* What this instance owes to one earlier or descendant instance. */
typedef struct {
   UInt from;       /* 0: free slot */
   UInt kinds;      /* TrDepKind bits */
   ULong bytes;
   UInt* objects;
   UInt n_objects, max_objects;
   Addr site;       /* on a descendant: where the instance's own function first used it */
} Dependency;

typedef struct {
   UInt object;     /* 0: free slot */
   Bool disabled;   /* uses while the object was disabled are kept apart */
   ULong read, written;
   Addr low, high;  /* the bytes used lie in [low, high) */
} Use;

typedef struct {
   UInt id, parent, type;
   Addr stack_top;
   Addr private_top;  /* tr_task_private_top while it runs */
   /* Where it created instances, outermost first: the stack pointer of each creation (the
      private top is the last one's), raised with the stack as the frames below die (the frames
      above, of the functions that called the one that created them, may still hold what the
      instances wrote through pointers). */
   struct Creation {
      Addr sp;
   } * creations;
   UInt n_creations, max_creations;
   Addr start_site, end_site;  /* the calls of tareador_start_task and _end_task (_ON, _OFF) */
   /* The frame bases (frame_base) of the function that started it, and of the one that started
      the last instance it created: the function it creates in (0: none yet). */
   Addr frame, children_frame;
   Record* records;
   UInt n_records, max_records;
   ULong pending;   /* instructions not in a record yet */
   Dependency* deps;
   UInt dep_slots, n_deps;
   Use* uses;
   UInt use_slots, n_uses;
   Use* last_use;   /* the slot of the last use: accesses come in runs on one object */
   UInt unresolved; /* receives whose source is not known yet */
   UInt* runtime_from;  /* instances it would depend on only through the runtimes' state */
   UInt n_runtime_from, max_runtime_from;
} Instance;

static struct {
   Bool active;
   ThreadId tid;
   ULong mark;              /* instruction count already given to an instance */
   Instance** open;         /* open[0] is the main task, the last one runs */
   UInt n_open, max_open;
   Instance** ended;        /* ended, not written yet, in the order they ended */
   UInt n_ended, max_ended;
   UInt instances, flag_slots;
   HChar** types;
   UInt n_types, max_types;
   UChar* declared;         /* objects declared in the stream */
   UInt declared_slots;
   ULong dependencies;
   ULong runtime_dependencies;  /* left out: through the runtime libraries' own state */
   UInt misnamed_ends;          /* tareador_end_task calls naming another task */
   /* Disables and enables asked for before tracing began (before tareador_ON, or between
      MPI_Init and the first task), done when it begins: the labs disable first. */
   struct { Addr at; Bool disable; } * early;
   UInt n_early, max_early;
   Bool begun;  /* tracing began once (asks after it ended are too late) */
   VgHashTable* outstanding;  /* the non-blocking calls not waited for yet (Outstanding) */
   TrFile out;  /* the tasks stream */
} tasks = {.out = {.fd = -1}};

#define MAX_MISNAMED_ENDS 3

static Instance* running(void) { return tasks.open[tasks.n_open - 1]; }

static void* grow(void* array, UInt* max, UInt at_least, SizeT item)
{
   while (*max < at_least) *max = *max ? 2 * *max : 16;
   return VG_(realloc)("tareador.tasks", array, *max * item);
}

/* ---- Instructions ------------------------------------------------------------------------ */

static void checkpoint(void)
{
   ULong now = tr_count_thread(tasks.tid);
   running()->pending += now - tasks.mark;
   tasks.mark = now;
}

static void add_record(Instance* in, RecordKind kind, ULong value, const TrEvent* event)
{
   if (in->pending > 0 && !(kind == REC_CPU)) add_record(in, REC_CPU, in->pending, NULL);
   if (kind == REC_CPU) in->pending = 0;
   if (in->n_records == in->max_records)
      in->records = grow(in->records, &in->max_records, in->n_records + 1, sizeof(Record));
   in->records[in->n_records].kind = kind;
   in->records[in->n_records].value = value;
   in->records[in->n_records].site = 0;
   if (event) in->records[in->n_records].event = *event;
   in->n_records++;
}

/* ---- Types and instances ----------------------------------------------------------------- */

/* The index of task type `name`. */
static UInt type_of(const HChar* name)
{
   UInt i;
   if (*name == 0) name = "unnamed";
   for (i = 0; i < tasks.n_types; i++)
      if (VG_(strcmp)(tasks.types[i], name) == 0) return i;
   if (tasks.n_types == tasks.max_types)
      tasks.types = grow(tasks.types, &tasks.max_types, tasks.n_types + 1, sizeof(HChar*));
   tasks.types[tasks.n_types] = VG_(strdup)("tareador.type", name);
   return tasks.n_types++;
}

/* The base of frame `i` of a stack trace of `n` frames (`sps` its stack pointers): the stack
   pointer of its caller at the call, which stays while the function runs, whatever it
   allocates on the stack (alloca moves its own stack pointer below its callees' earlier ones);
   deeper frames have lower bases. The outermost frame's caller is not in the trace: its own
   stack pointer. */
static Addr frame_base(const Addr* sps, UInt n, UInt i)
{
   return i + 1 < n ? sps[i + 1] : sps[i];
}

/* The stack pointer of the code that called tareador_start_task (or _ON): the frames below it
   will be the new instance's own; where that call is (`site`) and, unless NULL, the base of its
   frame (`frame`). The annotation functions' frames, if they were not inlined, are skipped: they
   come and go at every annotation. */
static Addr annotating_frame_sp(Addr* site, Addr* frame)
{
   Addr ips[8], sps[8];
   UInt n = VG_(get_StackTrace)(tasks.tid, ips, 8, sps, NULL, 0), i;
   const HChar* name;
   for (i = 0; i + 1 < n; i++)
      if (!VG_(get_fnname)(VG_(current_DiEpoch)(), ips[i], &name) ||
          VG_(strncmp)(name, "tareador_", 9) != 0)
         break;
   *site = n > 0 ? ips[i] : 0;
   if (frame) *frame = n > 0 ? frame_base(sps, n, i) : VG_(get_SP)(tasks.tid);
   return n > 0 ? sps[i] : VG_(get_SP)(tasks.tid);
}

/* Instance `in` runs with the frames below its private top private: publishes it. */
static void set_private_top(Instance* in)
{
   in->private_top = in->n_creations ? in->creations[in->n_creations - 1].sp : in->stack_top;
   tr_task_private_top = in->private_top;
   tr_memory_frames_moved();
}

/* The running instance `in` creates one at stack pointer `sp`. */
static void add_creation(Instance* in, Addr sp)
{
   if (sp >= in->stack_top ||
       (in->n_creations && in->creations[in->n_creations - 1].sp <= sp))
      return;  /* above its own frames, or in one of its creations' frames already */
   if (in->n_creations == in->max_creations)
      in->creations = grow(in->creations, &in->max_creations, in->n_creations + 1,
                           sizeof(struct Creation));
   in->creations[in->n_creations].sp = sp;
   in->n_creations++;
}

void tr_tasks_stack_rose(Addr sp)
{
   Instance* in;
   if (!tasks.n_open) return;
   in = running();
   if (in->n_creations == 0 || in->creations[in->n_creations - 1].sp >= sp) return;
   while (in->n_creations > 1 && in->creations[in->n_creations - 2].sp <= sp) in->n_creations--;
   in->creations[in->n_creations - 1].sp = sp < in->stack_top ? sp : in->stack_top;
   set_private_top(in);
}

#define SITE_FRAMES 64

/* Where the running code is in the function whose frame has base `frame` (or a caller of it,
   if that function has returned): the call through which it reached what it does. Frames are
   told by their bases, not their stack pointers: the function may have moved its own below
   `frame`'s callees' since (alloca in its tasks' code). */
static Addr site_in_frame(Addr frame)
{
   Addr ips[SITE_FRAMES], sps[SITE_FRAMES];
   UInt n = VG_(get_StackTrace)(tasks.tid, ips, SITE_FRAMES, sps, NULL, 0), i;
   for (i = 0; i < n; i++)
      if (frame_base(sps, n, i) >= frame) return ips[i];
   return 0;
}

static void open_instance(UInt type)
{
   Instance* in = VG_(calloc)("tareador.instance", 1, sizeof(Instance));
   tr_memory_tell();
   in->id = ++tasks.instances;
   in->type = type;
   in->parent = tasks.n_open ? running()->id : 0;
   in->stack_top = in->private_top = annotating_frame_sp(&in->start_site, &in->frame);
   if (in->id >= tasks.flag_slots) {
      UInt old = tasks.flag_slots;
      tr_task_open_flags = grow(tr_task_open_flags, &tasks.flag_slots, in->id + 1, 1);
      VG_(memset)(tr_task_open_flags + old, 0, tasks.flag_slots - old);
   }
   tr_task_open_flags[in->id] = 1;
   if (tasks.n_open) {
      add_record(running(), REC_SPAWN, in->id, NULL);
      running()->records[running()->n_records - 1].site = site_in_frame(running()->frame);
      running()->children_frame = in->frame;
      add_creation(running(), in->stack_top);
   }
   if (tasks.n_open == tasks.max_open)
      tasks.open = grow(tasks.open, &tasks.max_open, tasks.n_open + 1, sizeof(Instance*));
   tasks.open[tasks.n_open++] = in;
   tr_task_current = in->id;
   tr_task_stack_top = in->stack_top;
   set_private_top(in);
}

static void write_ready(void);

static void close_instance(void)
{
   Instance* in = running();
   tr_memory_tell();
   if (in->pending > 0) add_record(in, REC_CPU, in->pending, NULL);
   tr_task_open_flags[in->id] = 0;
   tasks.n_open--;
   tr_task_current = tasks.n_open ? running()->id : 0;
   tr_task_stack_top = tasks.n_open ? running()->stack_top : 0;
   if (tasks.n_open) {
      set_private_top(running());
   } else {
      tr_task_private_top = 0;
      tr_memory_frames_moved();
   }
   if (tasks.n_ended == tasks.max_ended)
      tasks.ended = grow(tasks.ended, &tasks.max_ended, tasks.n_ended + 1, sizeof(Instance*));
   tasks.ended[tasks.n_ended++] = in;
   write_ready();
}

void tr_tasks_begin(ThreadId tid, UInt dep_kinds)
{
   UInt i;
   tl_assert(!tasks.active);
   tasks.active = True;
   tasks.tid = tid;
   tasks.mark = tr_count_thread(tid);
   tr_trace_open_kind("tasks", &tasks.out);
   tasks.outstanding = VG_(HT_construct)("tareador.tasks.outstanding");
   type_of("main");
   open_instance(0);
   tr_reduced_begin(dep_kinds);
   tr_memory_start(dep_kinds, tid);
   tasks.begun = True;
   for (i = 0; i < tasks.n_early; i++)
      tr_tasks_disable_object(tasks.early[i].at, tasks.early[i].disable);
   tasks.n_early = 0;
}

Bool tr_tasks_active(void) { return tasks.active; }

const HChar* tr_tasks_current_type(void)
{
   return tasks.active && tasks.n_open ? tasks.types[running()->type] : NULL;
}

void tr_tasks_start(const HChar* name)
{
   if (!tasks.active) return;
   checkpoint();
   open_instance(type_of(name));
}

void tr_tasks_end(const HChar* name)
{
   Instance* in;
   HChar warning[2 * TR_NAME_MAX + 96];
   if (!tasks.active) return;
   if (tasks.n_open == 1) {
      VG_(snprintf)(warning, sizeof warning,
                    "tareador_end_task(\"%s\") with no task open: ignored", name ? name : "");
      tr_trace_warning(warning);
      return;
   }
   in = running();
   /* A program that names its tasks from a buffer ("Trying [3,1]") may misname every end: the
      first few say what happens, then one line says that more follow. */
   if (name && VG_(strcmp)(tasks.types[in->type], *name ? name : "unnamed") != 0 &&
       tasks.misnamed_ends++ <= MAX_MISNAMED_ENDS) {
      if (tasks.misnamed_ends <= MAX_MISNAMED_ENDS)
         VG_(snprintf)(warning, sizeof warning,
                       "tareador_end_task(\"%s\") ends task \"%s\" (the innermost open one)",
                       name, tasks.types[in->type]);
      else
         VG_(snprintf)(warning, sizeof warning,
                       "more tareador_end_task calls name another task than the innermost open "
                       "one, which each ends (only the first %d such calls are listed)",
                       MAX_MISNAMED_ENDS);
      tr_trace_warning(warning);
   }
   checkpoint();
   annotating_frame_sp(&in->end_site, NULL);
   close_instance();
}

/* ---- MPI --------------------------------------------------------------------------------- */

void tr_tasks_mpi_enter(void)
{
   if (!tasks.active) return;
   checkpoint();
   tr_memory_pause(True);
}

/* The receive posted as request `request` from an unknown source came from `peer` (or was
   cancelled: its record goes). */
static void resolve(Instance* in, const TrEvent* e)
{
   UInt i, kept = 0;
   if (in->unresolved == 0) return;
   for (i = 0; i < in->n_records; i++) {
      TrEvent* r = &in->records[i].event;
      if (in->records[i].kind == REC_MPI && r->kind == TR_EV_RECV && r->peer < 0 &&
          r->request == e->request) {
         in->unresolved--;
         if (e->peer == TR_PEER_CANCELLED) continue;
         r->peer = e->peer;
         r->tag = e->tag;
      }
      in->records[kept++] = in->records[i];
   }
   in->n_records = kept;
}

/* A message's buffer as the running task's access: its bytes, where its datatype puts them. */
static void access_message(const TrEvent* e, Addr buffer, Bool write)
{
   Int i;
   if (e->layout == NULL) {
      if (write) tr_memory_write(buffer, (SizeT)e->bytes);
      else tr_memory_read(buffer, (SizeT)e->bytes);
      return;
   }
   for (i = 0; i < e->layout_n; i++) {
      Addr at = buffer + (Addr)e->layout[i].offset;
      if (write) tr_memory_write(at, (SizeT)e->layout[i].length);
      else tr_memory_read(at, (SizeT)e->layout[i].length);
   }
}

/* The memory an MPI call reads (what it sends) and writes (what it receives). */
static void access_buffers(const TrEvent* e)
{
   switch (e->kind) {
      case TR_EV_SEND: access_message(e, (Addr)e->buffer, False); break;
      case TR_EV_RECV: access_message(e, (Addr)e->buffer_recv, True); break;
      case TR_EV_COLL:
         tr_memory_read((Addr)e->buffer, (SizeT)e->bytes);
         tr_memory_write((Addr)e->buffer_recv, (SizeT)e->bytes_recv);
         break;
      default: break;
   }
}

/* A non-blocking call's buffers are MPI's from the call to its wait: the instance that waits
   uses them too, so that an instance that uses the data received, or reuses a buffer, comes
   after the wait and not only after the call (they are often apart in MPI/OmpSs codes: a task
   posts, another waits). */
typedef struct Outstanding {
   struct Outstanding* next;
   UWord request;  /* the hash table's key */
   TrEvent call;   /* its layout a copy */
} Outstanding;

static void keep_until_wait(const TrEvent* e)
{
   Outstanding* o = VG_(malloc)("tareador.tasks.outstanding", sizeof(Outstanding));
   o->request = (UWord)e->request;
   o->call = *e;
   o->call.blocks = NULL;  /* (not used: a collective's buffers count whole) */
   if (e->layout) {
      SizeT bytes = (SizeT)e->layout_n * sizeof(TrSegment);
      TrSegment* layout = VG_(malloc)("tareador.tasks.outstanding", bytes);
      VG_(memcpy)(layout, e->layout, bytes);
      o->call.layout = layout;
   }
   VG_(HT_add_node)(tasks.outstanding, o);
}

static void waited_for(const TrEvent* e)
{
   Outstanding* o = VG_(HT_remove)(tasks.outstanding, (UWord)e->request);
   if (o == NULL) return;  /* posted before tracing began */
   access_buffers(&o->call);
   if (o->call.layout) VG_(free)((void*)o->call.layout);
   VG_(free)(o);
}

void tr_tasks_mpi_exit(const TrEvent* events, Int n)
{
   Int i;
   UInt j;
   Instance* in;
   if (!tasks.active) return;
   in = running();
   for (i = 0; i < n; i++) {
      const TrEvent* e = &events[i];
      access_buffers(e);
      /* The request's variable: the call that starts it writes it, its wait reads it (and sets
         it to MPI_REQUEST_NULL), so a task that waits comes after the one that posted. */
      if (e->handle) {
         if (e->kind == TR_EV_WAIT) tr_memory_read((Addr)e->handle, (SizeT)e->handle_bytes);
         tr_memory_write((Addr)e->handle, (SizeT)e->handle_bytes);
      }
      /* And the status MPI fills for the program (the source and tag it reads after). */
      if (e->status) tr_memory_write((Addr)e->status, (SizeT)e->status_bytes);
      if (e->kind == TR_EV_WAIT) waited_for(e);
      else if (e->immediate && e->request != 0 && e->kind != TR_EV_RESOLVE) keep_until_wait(e);
      if (e->kind == TR_EV_RESOLVE) {
         for (j = 0; j < tasks.n_open; j++) resolve(tasks.open[j], e);
         for (j = 0; j < tasks.n_ended; j++) resolve(tasks.ended[j], e);
         continue;
      }
      add_record(in, REC_MPI, 0, e);
      if (e->kind == TR_EV_RECV && e->peer < 0) in->unresolved++;
   }
   write_ready();
   tasks.mark = tr_count_thread(tasks.tid);
   tr_memory_pause(False);
}

/* ---- Dependencies and uses (from the shadow memory) --------------------------------------- */

static UInt hash(UInt key) { return key * 0x9E3779B1u; }

void tr_tasks_runtime_dependency(UInt from)
{
   Instance* in = running();
   UInt i;
   for (i = 0; i < in->n_runtime_from; i++)
      if (in->runtime_from[i] == from) return;
   if (in->n_runtime_from == in->max_runtime_from)
      in->runtime_from = grow(in->runtime_from, &in->max_runtime_from, in->n_runtime_from + 1,
                              sizeof(UInt));
   in->runtime_from[in->n_runtime_from++] = from;
   tasks.runtime_dependencies++;
}

static Dependency* dependency_slot(Instance* in, UInt from)
{
   UInt i = hash(from) & (in->dep_slots - 1);
   while (in->deps[i].from != 0 && in->deps[i].from != from) i = (i + 1) & (in->dep_slots - 1);
   return &in->deps[i];
}

static void grow_dependencies(Instance* in)
{
   Dependency* old = in->deps;
   UInt slots = in->dep_slots, i;
   in->dep_slots = slots ? 2 * slots : 16;
   in->deps = VG_(calloc)("tareador.deps", in->dep_slots, sizeof(Dependency));
   for (i = 0; i < slots; i++)
      if (old[i].from) *dependency_slot(in, old[i].from) = old[i];
   VG_(free)(old);
}

void tr_tasks_depends(UInt from, TrDepKind kind, UInt object, ULong bytes)
{
   Instance* in = running();
   Dependency* d;
   UInt i;
   if (2 * (in->n_deps + 1) > in->dep_slots) grow_dependencies(in);
   d = dependency_slot(in, from);
   if (d->from == 0) {
      d->from = from;
      in->n_deps++;
      tasks.dependencies++;
      /* An instance this one created: wait for it here, where its result is first used. */
      if (from > in->id) {
         checkpoint();
         add_record(in, REC_AFTER, from, NULL);
         /* Where it waits: in the function that created its children. */
         d->site = site_in_frame(in->children_frame ? in->children_frame : in->frame);
      }
   }
   d->kinds |= kind;
   d->bytes += bytes;
   for (i = 0; i < d->n_objects && d->objects[i] != object; i++) {}
   if (i == d->n_objects) {
      if (d->n_objects == d->max_objects)
         d->objects = grow(d->objects, &d->max_objects, d->n_objects + 1, sizeof(UInt));
      d->objects[d->n_objects++] = object;
   }
}

static Use* use_slot(Instance* in, UInt object, Bool disabled)
{
   UInt i = hash(2 * object + disabled) & (in->use_slots - 1);
   while (in->uses[i].object != 0 &&
          (in->uses[i].object != object || in->uses[i].disabled != disabled))
      i = (i + 1) & (in->use_slots - 1);
   return &in->uses[i];
}

/* The slot of `object` in the instance's uses, made (first used at [a, a+n)) if new. */
static Use* use_of(Instance* in, UInt object, Bool disabled, Addr a, SizeT n)
{
   Use* u;
   if (2 * (in->n_uses + 1) > in->use_slots) {
      Use* old = in->uses;
      UInt slots = in->use_slots, i;
      in->use_slots = slots ? 2 * slots : 16;
      in->uses = VG_(calloc)("tareador.uses", in->use_slots, sizeof(Use));
      for (i = 0; i < slots; i++)
         if (old[i].object) *use_slot(in, old[i].object, old[i].disabled) = old[i];
      VG_(free)(old);
   }
   u = use_slot(in, object, disabled);
   if (u->object == 0) {
      u->object = object;
      u->disabled = disabled;
      u->low = a;
      u->high = a + n;
      in->n_uses++;
   }
   return u;
}

void tr_tasks_temporary(UInt owner, UInt object)
{
   Int k;
   const TrObject* o = tr_object(object);
   for (k = (Int)tasks.n_open - 1; k >= 0; k--)
      if (tasks.open[k]->id == owner) {
         /* (use_of may move the instance's uses: its cached one is this) */
         tasks.open[k]->last_use = use_of(tasks.open[k], object, False, o->start, 0);
         return;
      }
}

void tr_tasks_uses(UInt object, Addr a, SizeT n, ULong read, ULong written, Bool disabled)
{
   Instance* in = running();
   Use* u = in->last_use;
   if (object == 0) return;
   if (disabled && written > 0) tr_reduced_from(object, in->id, a, n, True);
   if (u == NULL || u->object != object || u->disabled != disabled)
      u = in->last_use = use_of(in, object, disabled, a, n);
   if (a < u->low) u->low = a;
   if (a + n > u->high) u->high = a + n;
   u->read += read;
   u->written += written;
}

/* Whether `a` is in the malloc arena but in no live block (a block's address would have found
   the block). */
static Bool in_heap_arena(Addr a)
{
   NSegment const* segment = VG_(am_find_nsegment)(a);
   return segment != NULL && segment->kind == SkAnonC && segment->isCH;
}

void tr_tasks_disable_object(Addr a, Bool disable)
{
   TrObject* o;
   UInt id;
   HChar warning[TR_NAME_MAX + 160];
   if (!tasks.active) {
      if (tasks.begun) return;
      if (tasks.n_early == tasks.max_early)
         tasks.early = grow(tasks.early, &tasks.max_early, tasks.n_early + 1, sizeof *tasks.early);
      tasks.early[tasks.n_early].at = a;
      tasks.early[tasks.n_early++].disable = disable;
      return;
   }
   if (!VG_(am_is_valid_for_client)(a, 1, VKI_PROT_READ)) {
      VG_(snprintf)(warning, sizeof warning, "tareador_%s_object(%#lx): not an address of the "
                    "program's memory: ignored", disable ? "disable" : "enable", a);
      tr_trace_warning(warning);
      return;
   }
   id = tr_object_of_variable(tasks.tid, a);
   o = tr_object(id);
   if (o == NULL) return;
   /* Not a freed block: its address lies in a region of the heap's arena, and disabling that
      would disable the blocks allocated there next; nor constants or a library's memory. (The
      program's own mappings are fine.) */
   if (o->kind == TR_OBJ_CONST || o->kind == TR_OBJ_LIBRARY ||
       (o->kind == TR_OBJ_OTHER && in_heap_arena(a))) {
      VG_(snprintf)(warning, sizeof warning, "tareador_%s_object: an address that is not a "
                    "variable or a live heap block of the program (freed memory, a library's, "
                    "a constant): ignored", disable ? "disable" : "enable");
      tr_trace_warning(warning);
      return;
   }
   /* Calls nest: a recursive task disables what its children disable and enable again. */
   if (!disable && o->disabled == 0) return;
   o->disabled += disable ? 1 : -1;
   if (o->disabled != (disable ? 1u : 0u)) return;
   if (disable) {
      /* An element or a member names all of its object: say so, once per object (the text
         leaves out the element's address). (Memory the program maps is cut into regions of
         the tool's own, whose starts mean nothing to it.) */
      if (a != o->start && o->kind != TR_OBJ_OTHER) {
         VG_(snprintf)(warning, sizeof warning, "tareador_disable_object names a byte inside %s "
                       "(%lu bytes): the whole object is disabled, every element of it",
                       tr_object_name(id), o->size);
         tr_trace_warning(warning);
      }
      tr_disabled_add(o->start, o->size);
   } else {
      tr_disabled_remove(o->start);
   }
}

/* Objects still disabled when tracing ends (the memory's disabled ranges: freed blocks and
   popped variables have left them): their accesses since they were disabled made no
   dependency, which a program that forgot tareador_enable_object did not mean. */
static void warn_still_disabled(void)
{
   UInt i;
   Addr start;
   HChar warning[TR_NAME_MAX + 160];
   for (i = 0; (start = tr_disabled_start(i)) != 0; i++) {
      VG_(snprintf)(warning, sizeof warning, "%s was still disabled when tracing ended: no "
                    "access to it after tareador_disable_object made a dependency",
                    tr_object_name(tr_object_of_variable(tasks.tid, start)));
      tr_trace_warning(warning);
   }
}

/* ---- Writing ----------------------------------------------------------------------------- */

static const HChar* kind_name(TrObjectKind kind)
{
   switch (kind) {
      case TR_OBJ_HEAP: return "heap";
      case TR_OBJ_GLOBAL: return "global";
      case TR_OBJ_STACK: return "stack";
      case TR_OBJ_CONST: return "const";
      case TR_OBJ_LIBRARY: return "library";
      default: return "other";
   }
}

static void declare(UInt object)
{
   const TrObject* o = tr_object(object);
   if (object < tasks.declared_slots && tasks.declared[object]) return;
   if (object >= tasks.declared_slots) {
      UInt old = tasks.declared_slots;
      tasks.declared = grow(tasks.declared, &tasks.declared_slots, object + 1, 1);
      VG_(memset)(tasks.declared + old, 0, tasks.declared_slots - old);
   }
   tasks.declared[object] = 1;
   tr_text_end_records(&tasks.out.text);
   tr_text_printf(&tasks.out.text, "object %u %s %lu ", object, kind_name(o->kind), o->size);
   tr_text_field(&tasks.out.text, tr_object_name(object));
   tr_text_append(&tasks.out.text, "\n");
}

/* " FILE:LINE" of code address `ip` from the debug information (the file with its directory),
   or " -" when it has none. */
static void write_site(Addr ip)
{
   const HChar* file;
   const HChar* dir;
   HChar where[1024];
   UInt line;
   if (ip == 0 ||
       !VG_(get_filename_linenum)(VG_(current_DiEpoch)(), ip, &file, &dir, &line)) {
      tr_text_append(&tasks.out.text, " -");
      return;
   }
   if (file[0] != '/' && dir && dir[0])
      VG_(snprintf)(where, sizeof where, "%s/%s:%u", dir, file, line);
   else
      VG_(snprintf)(where, sizeof where, "%s:%u", file, line);
   tr_text_append(&tasks.out.text, " ");
   tr_text_field(&tasks.out.text, where);
}

static Int compare_uints(const void* a, const void* b)
{
   UInt x = *(const UInt*)a, y = *(const UInt*)b;
   return x < y ? -1 : x > y;
}

static Int compare_dependencies(const void* a, const void* b)
{
   return compare_uints(&(*(Dependency* const*)a)->from, &(*(Dependency* const*)b)->from);
}

static Int compare_uses(const void* a, const void* b)
{
   const Use* x = a;
   const Use* y = b;
   Int by_object = compare_uints(&x->object, &y->object);
   return by_object ? by_object : (Int)x->disabled - (Int)y->disabled;
}

static void write_dependency(const Dependency* d)
{
   static const HChar* const kKindNames[] = {"raw", "war", "waw"};
   HChar kinds[16] = "";
   UInt k;
   for (k = 0; k < 3; k++)
      if (d->kinds & (1u << k)) {
         if (kinds[0]) VG_(strcat)(kinds, "+");
         VG_(strcat)(kinds, kKindNames[k]);
      }
   /* Built in pieces: the object list has no bound. */
   tr_text_end_records(&tasks.out.text);
   tr_text_printf(&tasks.out.text, "after %u %s %llu ", d->from, kinds, d->bytes);
   for (k = 0; k < d->n_objects; k++) tr_text_printf(&tasks.out.text, "%s%u", k ? "," : "", d->objects[k]);
   if (d->site) write_site(d->site);
   tr_text_append(&tasks.out.text, "\n");
}

/* `uses` of instance `in`, with the span of the bytes used as offsets into the object; `local`
   for a heap block the instance allocated and freed, itself or through an instance it created
   (a temporary of its own, in no clause of it); `outer` for a variable of a caller of the
   function that created it, on the stack above that function's frame (a matrix of `main`
   passed down): the task reaches it through a pointer, as it would a heap block. */
static void write_use(const Use* u, const Instance* in)
{
   const TrObject* o = tr_object(u->object);
   Addr low = u->low > o->start ? u->low : o->start;
   Addr high = u->high < o->start + o->size ? u->high : o->start + o->size;
   Bool local = o->kind == TR_OBJ_HEAP && o->dead && o->born_in == in->id && o->freed_inside;
   Bool outer = o->kind == TR_OBJ_STACK &&
                (o->home ? o->home > in->frame : o->start >= in->frame);
   tr_text_end_records(&tasks.out.text);
   tr_text_printf(&tasks.out.text, "uses %u %llu %llu%s%s%s", u->object, u->read, u->written,
                  u->disabled ? " disabled" : "", local ? " local" : "", outer ? " outer" : "");
   if (high > low) tr_text_printf(&tasks.out.text, " span %lu %lu", low - o->start, high - o->start);
   tr_text_append(&tasks.out.text, "\n");
}

static void write_section(Instance* in)
{
   Dependency** deps = VG_(malloc)("tareador.write", (in->n_deps + 1) * sizeof(Dependency*));
   UInt n = 0, i, k;
   Use* uses = in->uses;
   UInt n_uses = 0;
   for (i = 0; i < in->dep_slots; i++)
      if (in->deps[i].from) {
         Dependency* d = &in->deps[i];
         VG_(ssort)(d->objects, d->n_objects, sizeof(UInt), compare_uints);
         for (k = 0; k < d->n_objects; k++) declare(d->objects[k]);
         deps[n++] = d;
      }
   VG_(ssort)(deps, n, sizeof(Dependency*), compare_dependencies);
   for (i = 0; i < in->use_slots; i++)
      if (uses[i].object) uses[n_uses++] = uses[i];
   VG_(ssort)(uses, n_uses, sizeof(Use), compare_uses);
   for (i = 0; i < n_uses; i++) declare(uses[i].object);

   tr_text_end_records(&tasks.out.text);
   tr_text_printf(&tasks.out.text, "task %u ", in->id);
   tr_text_field(&tasks.out.text, tasks.types[in->type]);
   tr_text_printf(&tasks.out.text, " %u", in->parent);
   write_site(in->start_site);
   write_site(in->end_site);
   tr_text_append(&tasks.out.text, "\n");
   for (i = 0; i < n && deps[i]->from < in->id; i++) write_dependency(deps[i]);
   for (i = 0; i < in->n_records; i++) {
      const Record* r = &in->records[i];
      switch (r->kind) {
         case REC_CPU: tr_text_burst(&tasks.out.text, r->value); break;
         case REC_MPI: tr_text_mpi(&tasks.out.text, &r->event); break;
         case REC_SPAWN:
            tr_text_end_records(&tasks.out.text);
            tr_text_printf(&tasks.out.text, "spawn %llu", r->value);
            write_site(r->site);
            tr_text_append(&tasks.out.text, "\n");
            break;
         case REC_AFTER: write_dependency(dependency_slot(in, (UInt)r->value)); break;
      }
   }
   for (i = 0; i < n_uses; i++) write_use(&uses[i], in);
   tr_text_record(&tasks.out.text, "endtask");
   VG_(free)(deps);
}

static void free_instance(Instance* in)
{
   UInt i;
   for (i = 0; i < in->dep_slots; i++) VG_(free)(in->deps[i].objects);
   VG_(free)(in->deps);
   VG_(free)(in->uses);
   VG_(free)(in->records);
   VG_(free)(in->runtime_from);
   VG_(free)(in->creations);
   VG_(free)(in);
}

/* Writes the ended instances in order, up to the first one with a receive still unresolved
   (`all`: every one, as it is). */
static void write_ended(Bool all)
{
   UInt i = 0, j;
   while (i < tasks.n_ended && (all || tasks.ended[i]->unresolved == 0)) {
      write_section(tasks.ended[i]);
      free_instance(tasks.ended[i]);
      i++;
   }
   for (j = i; j < tasks.n_ended; j++) tasks.ended[j - i] = tasks.ended[j];
   tasks.n_ended -= i;
   tr_file_write_due(&tasks.out);
}

static void write_ready(void) { write_ended(False); }

void tr_tasks_finish(Bool complete)
{
   if (!tasks.active) return;
   if (complete) {
      checkpoint();
      annotating_frame_sp(&tasks.open[0]->end_site, NULL);
      while (tasks.n_open > 1) {
         HChar warning[160];
         VG_(snprintf)(warning, sizeof warning, "task \"%s\" (instance %u) was still open at the end: ended there",
                       tasks.types[running()->type], running()->id);
         tr_trace_warning(warning);
         close_instance();
      }
      close_instance();
   }
   write_ended(True);
   warn_still_disabled();
   if (complete) tr_text_record(&tasks.out.text, "end");
   tr_text_end_records(&tasks.out.text);
   tr_file_close(&tasks.out);
   tasks.active = False;
   tr_task_current = 0;
   tr_memory_stop();
   if (tasks.runtime_dependencies > 0) {
      HChar warning[256];
      VG_(snprintf)(warning, sizeof warning,
                    "%llu dependencies through the runtime libraries' own state (stdio buffers "
                    "and locks, errno, the C library's tables) were left out: calls into them are "
                    "taken to be thread-safe", tasks.runtime_dependencies);
      tr_trace_warning(warning);
   }
   tr_trace_tasks_summary(tasks.instances, tasks.n_types, tasks.dependencies);
}
