/* tr_potential.c — the potential tasks of an unannotated run (--potential-tasks=functions).

   The call tree is followed through the calls the instrumented code reports and the stack
   pointer rising above a call's frame (its return, or a longjmp past it). Only the open nodes
   are in memory, each with the segment of its own work under way: the file gets a segment when
   the node calls a child or returns, so memory stays bounded by the call depth times the
   interval cap, whatever the length of the run. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"

#include "tr_count.h"
#include "tr_potential.h"
#include "tr_program.h"
#include "tr_file.h"
#include "tr_objects.h"
#include "tr_spans.h"
#include "tr_trace.h"
#include "tracefmt/set_layout.h"

#define NOT_A_NODE (-1)
#define SPANS_PER_LINE 16

/* A function of the program (or an annotated region's name), as the file declares it. */
typedef struct {
   Addr entry;      /* 0 for a region */
   HChar* name;
   Bool region;
   Bool declared;   /* its `function` line is written */
   Bool capped;     /* it reached the cap on calls: later ones are their callers' work */
   UInt calls;
} Function;

typedef struct {
   UInt id, function;
   Addr frame_top;  /* the stack pointer before the call: below are the node's own frames */
   ULong instructions;  /* of the segment under way */
   TrSpans read, written;
} Node;

/* Entry address -> function index, or NOT_A_NODE (a library's code, the PLT, the annotation
   functions). */
typedef struct {
   Addr entry;
   Int function;
} Entry;

#define PROGRAM_OBJECTS 8

static struct {
   Bool enabled, recording, done;
   UInt max_calls, max_intervals;
   ULong segment_span;  /* instructions after which a segment ends even without a call */
   ThreadId tid;
   Addr stack_low, stack_end;  /* the traced thread's stack */
   /* The last objects found not to be runtime state (runtime_state), forgotten when a block
      is allocated or freed: a kernel's arrays are looked up once, not at every access. */
   struct { Addr start, end; } program[PROGRAM_OBJECTS];
   UInt next_program;
   ULong mark;          /* instructions already given to a segment */
   Node* open;
   UInt n_open, max_open;
   UInt nodes;
   Function* functions;
   UInt n_functions, max_functions;
   Entry* entries;
   UInt entry_slots, n_entries;
   ULong coarsened;     /* segments whose intervals were merged to stay under the cap */
   void (*begins)(ThreadId);
   void (*ends)(void);
   TrFile out;
} pt = {.max_calls = 20000, .max_intervals = 4096, .segment_span = 2000, .out = {.fd = -1}};

void tr_potential_configure(Bool enabled, UInt max_calls, UInt max_intervals, ULong segment_span)
{
   pt.enabled = enabled;
   pt.max_calls = max_calls;
   pt.max_intervals = max_intervals;
   pt.segment_span = segment_span;
}

Bool tr_potential_enabled(void) { return pt.enabled; }

void tr_potential_set_hooks(void (*begins)(ThreadId tid), void (*ends)(void))
{
   pt.begins = begins;
   pt.ends = ends;
}

/* ---- Functions --------------------------------------------------------------------------- */

static Int add_function(Addr entry, const HChar* name, Bool region)
{
   Function* f;
   if (pt.n_functions == pt.max_functions) {
      pt.max_functions = pt.max_functions ? 2 * pt.max_functions : 64;
      pt.functions = VG_(realloc)("tareador.potential", pt.functions,
                                  pt.max_functions * sizeof(Function));
   }
   f = &pt.functions[pt.n_functions];
   VG_(memset)(f, 0, sizeof *f);
   f->entry = entry;
   f->name = VG_(strdup)("tareador.potential", name);
   f->region = region;
   return (Int)pt.n_functions++;
}

/* Whether a call of `entry` is a potential task: the entry of a function of the program's own
   source (not a library's, not a PLT stub, not the annotation API's). */
static Int classify(Addr entry)
{
   const HChar* name;
   if (!tr_program_is_user_code(entry) ||
       !VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), entry, &name) ||
       VG_(strncmp)(name, "tareador_", 9) == 0 || VG_(strchr)(name, '@') != NULL)
      return NOT_A_NODE;
   return add_function(entry, name, False);
}

static UInt entry_hash(Addr a) { return (UInt)((a >> 2) * 0x9E3779B1u); }

static Entry* entry_slot(Addr a)
{
   UInt i = entry_hash(a) & (pt.entry_slots - 1);
   while (pt.entries[i].entry != 0 && pt.entries[i].entry != a) i = (i + 1) & (pt.entry_slots - 1);
   return &pt.entries[i];
}

static Int function_at(Addr entry)
{
   Entry* e;
   if (2 * (pt.n_entries + 1) > pt.entry_slots) {
      Entry* old = pt.entries;
      UInt slots = pt.entry_slots, i;
      pt.entry_slots = slots ? 2 * slots : 1024;
      pt.entries = VG_(calloc)("tareador.potential", pt.entry_slots, sizeof(Entry));
      for (i = 0; i < slots; i++)
         if (old[i].entry) *entry_slot(old[i].entry) = old[i];
      VG_(free)(old);
   }
   e = entry_slot(entry);
   if (e->entry == 0) {
      e->entry = entry;
      e->function = classify(entry);
      pt.n_entries++;
   }
   return e->function;
}

static void declare(UInt index)
{
   Function* f = &pt.functions[index];
   const HChar *file, *dir;
   UInt line;
   if (f->declared) return;
   f->declared = True;
   tr_text_printf(&pt.out.text, "function %u %s ", index, f->region ? "region" : "call");
   tr_text_field(&pt.out.text, f->name);
   if (!f->region && VG_(get_filename_linenum)(VG_(current_DiEpoch)(), f->entry, &file, &dir, &line)) {
      HChar where[256];
      VG_(snprintf)(where, sizeof where, "%s:%u", file, line);
      tr_text_append(&pt.out.text, " ");
      tr_text_field(&pt.out.text, where);
      tr_text_append(&pt.out.text, "\n");
   } else {
      tr_text_append(&pt.out.text, " -\n");
   }
}

/* ---- Segments ---------------------------------------------------------------------------- */

static Node* top(void) { return &pt.open[pt.n_open - 1]; }

static void write_spans(const HChar* what, const TrSpans* set)
{
   UInt i;
   for (i = 0; i < set->n; i++) {
      if (i % SPANS_PER_LINE == 0) tr_text_printf(&pt.out.text, "%s%s", i ? "\n" : "", what);
      tr_text_printf(&pt.out.text, " %lx+%lx", set->s[i].lo, set->s[i].hi - set->s[i].lo);
   }
   if (set->n) tr_text_append(&pt.out.text, "\n");
}

/* The running node's segment so far goes to the file. */
static void end_segment(void)
{
   Node* n = top();
   ULong now = tr_count_thread(pt.tid);
   n->instructions += now - pt.mark;
   pt.mark = now;
   if (n->instructions == 0 && n->read.n == 0 && n->written.n == 0) return;
   tr_text_printf(&pt.out.text, "work %llu\n", n->instructions);
   write_spans("read", &n->read);
   write_spans("write", &n->written);
   tr_file_write_due(&pt.out);
   n->instructions = 0;
   tr_spans_clear(&n->read);
   tr_spans_clear(&n->written);
}

static void open_node(UInt function, Addr frame_top)
{
   Node* n;
   if (pt.n_open) end_segment();
   if (pt.n_open == pt.max_open) {
      pt.max_open = pt.max_open ? 2 * pt.max_open : 64;
      pt.open = VG_(realloc)("tareador.potential", pt.open, pt.max_open * sizeof(Node));
   }
   n = &pt.open[pt.n_open++];
   VG_(memset)(n, 0, sizeof *n);
   n->id = ++pt.nodes;
   n->function = function;
   n->frame_top = frame_top;
   declare(function);
   tr_text_printf(&pt.out.text, "node %u %u %u %lx\n", n->id,
                  pt.n_open > 1 ? pt.open[pt.n_open - 2].id : 0, function, frame_top);
}

static void close_node(void)
{
   Node* n = top();
   end_segment();
   tr_text_printf(&pt.out.text, "return %u\n", n->id);
   tr_spans_free(&n->read);
   tr_spans_free(&n->written);
   pt.n_open--;
   if (pt.n_open == 0) tr_potential_finish(True);
}

/* A heap block was allocated or freed: what its bytes held is forgotten from here on (a block
   allocated again at the same address is another object). */
static void forget_block(Addr start, SizeT size, TrBlockEvent event)
{
   /* a copy is not a use; disabling keeps what the bytes held */
   if (event == TR_BLOCK_READ || event == TR_BLOCK_WRITTEN || event == TR_BLOCK_DISABLED) return;
   VG_(memset)(pt.program, 0, sizeof pt.program);
   if (!pt.recording || pt.n_open == 0 || size == 0) return;
   end_segment();
   tr_text_printf(&pt.out.text, "forget %lx+%lx\n", start, size);
}

/* ---- Calls and returns ------------------------------------------------------------------- */

static void begin(ThreadId tid, Addr target, Addr frame_top)
{
   HChar name[64];
   Int main_function = add_function(target, "main", False);
   pt.begins(tid);
   pt.tid = tid;
   pt.recording = True;
   pt.stack_end = VG_(thread_get_stack_max)(tid) + 1;
   pt.stack_low = pt.stack_end - VG_(thread_get_stack_size)(tid);
   VG_(sprintf)(name, TR_SET_POTENTIAL, tr_trace_rank());
   tr_trace_create(name, &pt.out);
   tr_text_printf(&pt.out.text, "# tareador potential v1 rank=%d\nstack %lx %lx\n", tr_trace_rank(),
                  pt.stack_low, pt.stack_end);
   pt.mark = tr_count_thread(tid);
   pt.functions[main_function].calls = 1;
   tr_objects_on_block = forget_block;
   open_node((UInt)main_function, frame_top);
}

VG_REGPARM(2) void tr_potential_call(Addr target, Addr sp)
{
   ThreadId tid = VG_(get_running_tid)();
   const HChar* name;
   Int f;
   if (!pt.recording) {
      if (!pt.done && tr_program_is_user_code(target) &&
          VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), target, &name) &&
          VG_(strcmp)(name, "main") == 0)
         begin(tid, target, sp + sizeof(Addr));
      return;
   }
   if (tid != pt.tid) return;
   f = function_at(target);
   if (f == NOT_A_NODE) return;
   if (pt.functions[f].calls >= pt.max_calls) {
      if (!pt.functions[f].capped) {
         HChar warning[160];
         pt.functions[f].capped = True;
         VG_(snprintf)(warning, sizeof warning, "potential tasks: calls of %s after the first %u "
                       "are part of their caller's work (--potential-max-calls)",
                       pt.functions[f].name, pt.max_calls);
         tr_trace_warning(warning);
      }
      return;
   }
   pt.functions[f].calls++;
   open_node((UInt)f, sp + sizeof(Addr));
}

void tr_potential_stack_rises(Addr sp)
{
   if (VG_(get_running_tid)() != pt.tid) return;
   /* A region ends with the frame that started it, which reaches its own frame_top again. */
   while (pt.recording && pt.n_open > 0 &&
          (pt.functions[top()->function].region ? sp > top()->frame_top : sp >= top()->frame_top)) {
      if (pt.functions[top()->function].region)
         tr_trace_warning("potential tasks: an annotated region was still open when its "
                          "function returned: ended there");
      close_node();
   }
}

/* Whether `a` is the language runtimes' own state (stdio's FILEs and buffers, errno): as in a
   tasks run, where calls into them are taken to be thread-safe, it makes no dependency. (Stack
   bytes never are; they are the most accessed, and looked up dearest.) */
static Bool runtime_state(Addr a)
{
   const TrObject* o;
   UInt i;
   if (a >= pt.stack_low && a < pt.stack_end) return False;
   for (i = 0; i < PROGRAM_OBJECTS; i++)
      if (a >= pt.program[i].start && a < pt.program[i].end) return False;
   o = tr_object(tr_object_at(pt.tid, a));
   if (o == NULL || o->runtime) return o != NULL;
   /* (Only a live block or a variable: a region of other memory may hold the heap's blocks.) */
   if (o->dead || (o->kind != TR_OBJ_HEAP && o->kind != TR_OBJ_GLOBAL)) return False;
   pt.program[pt.next_program].start = o->start;
   pt.program[pt.next_program].end = o->start + o->size;
   pt.next_program = (pt.next_program + 1) % PROGRAM_OBJECTS;
   return False;
}

void tr_potential_access(Addr a, SizeT n, Bool write)
{
   Node* node;
   if (!pt.recording || VG_(get_running_tid)() != pt.tid || pt.n_open == 0) return;
   if (runtime_state(a)) return;
   /* Long stretches without calls are cut too: a wait for a task's result goes where its
      segment starts, so the segments bound how early a consumer may wait. */
   if (tr_count_thread(pt.tid) - pt.mark >= pt.segment_span) end_segment();
   node = top();
   if (write) {
      tr_spans_add(&node->written, a, a + n);
      if (tr_spans_coarsen(&node->written, pt.max_intervals)) pt.coarsened++;
   } else {
      tr_spans_add_outside(&node->read, &node->written, a, a + n);
      if (tr_spans_coarsen(&node->read, pt.max_intervals)) pt.coarsened++;
   }
}

/* ---- Annotated regions ------------------------------------------------------------------- */

/* The stack pointer of the code that called the annotation (its frames are skipped). */
static Addr annotating_frame_sp(ThreadId tid)
{
   Addr ips[8], sps[8];
   UInt n = VG_(get_StackTrace)(tid, ips, 8, sps, NULL, 0), i;
   const HChar* name;
   for (i = 0; i + 1 < n; i++)
      if (!VG_(get_fnname)(VG_(current_DiEpoch)(), ips[i], &name) ||
          VG_(strncmp)(name, "tareador_", 9) != 0)
         break;
   return n > 0 ? sps[i] : VG_(get_SP)(tid);
}

void tr_potential_region_start(ThreadId tid, const HChar* name)
{
   UInt i;
   if (!pt.recording || tid != pt.tid) return;
   for (i = 0; i < pt.n_functions; i++)
      if (pt.functions[i].region && VG_(strcmp)(pt.functions[i].name, name) == 0) break;
   if (i == pt.n_functions) i = (UInt)add_function(0, name, True);
   pt.functions[i].calls++;
   open_node(i, annotating_frame_sp(tid));
}

void tr_potential_region_end(void)
{
   UInt i = pt.n_open;
   if (!pt.recording) return;
   while (i > 1 && !pt.functions[pt.open[i - 1].function].region) i--;
   if (i <= 1) {
      tr_trace_warning("potential tasks: tareador_end_task with no region open: ignored");
      return;
   }
   while (pt.n_open >= i) close_node();
}

void tr_potential_finish(Bool complete)
{
   if (!pt.recording) return;
   pt.recording = False;
   pt.done = True;
   if (complete) {
      while (pt.n_open > 0) {
         end_segment();
         tr_text_printf(&pt.out.text, "return %u\n", top()->id);
         pt.n_open--;
      }
      tr_text_printf(&pt.out.text, "end\n");
   }
   if (pt.coarsened > 0) {
      HChar warning[200];
      VG_(snprintf)(warning, sizeof warning, "potential tasks: %llu segments had more than %u "
                    "intervals read or written: nearby ones were merged (--potential-max-intervals)",
                    pt.coarsened, pt.max_intervals);
      tr_trace_warning(warning);
   }
   tr_file_close(&pt.out);
   if (complete) pt.ends();
}
