/* tr_main.c — the Valgrind tool `tareador`: registration, options, the requests of the MPI
   wrappers (its preload library) and of tareador.h, and the end of the run.

   A process is traced from MPI_Init (or tareador_ON) on. Its bursts are the guest instructions
   its thread executes between MPI calls; the wrappers say when a call starts and ends and what
   it did, and the trace records that. Task annotations start the task tracing (tr_tasks.c),
   which instruments memory accesses from then on (tr_memory.c). */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_transtab.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "tr_client.h"
#include "tr_clreq.h"
#include "tr_comm.h"
#include "tr_count.h"
#include "tr_instrument.h"
#include "tr_objects.h"
#include "tr_overlap.h"
#include "tr_memory.h"
#include "tr_potential.h"
#include "tr_program.h"
#include "tr_tasks.h"
#include "tr_threadcomm.h"
#include "tr_threads.h"
#include "tr_trace.h"

/* ---- Options ----------------------------------------------------------------------------- */

static const HChar* clo_trace_dir = "tareador-out";
static Long clo_mips = 1000; /* instructions per microsecond: 1 per ns; calibrate with
                                tareador-calibrate for real seconds */
static UInt clo_deps = TR_DEP_RAW;
static const HChar* clo_graph_format = "dot";
static Bool clo_task_report = True;
static Bool clo_overlap = False;
static Long clo_chunks = 4;
static Long clo_chunk_min = 32768; /* Open MPI's smallest pipeline fragment (docs/tool.md) */
static Bool clo_overlap_shift = True;
static TrCollAlgorithm clo_collectives = TR_COLL_BINOMIAL;
static Bool clo_potential = False;  /* --potential-tasks=functions */
static Long clo_potential_max_calls = 20000;
static Long clo_potential_max_intervals = 4096;
static Long clo_potential_segment = 2000;

/* "raw", "raw+war", "raw+war+waw", ... into TrDepKind bits (read-after-write is always on). */
static Bool parse_deps(const HChar* value)
{
   HChar copy[64];
   HChar* save = NULL;
   HChar* word;
   UInt kinds = TR_DEP_RAW;
   if (VG_(strlen)(value) >= sizeof copy) return False;
   VG_(strcpy)(copy, value);
   for (word = VG_(strtok_r)(copy, "+,", &save); word; word = VG_(strtok_r)(NULL, "+,", &save)) {
      if (VG_(strcmp)(word, "raw") == 0) kinds |= TR_DEP_RAW;
      else if (VG_(strcmp)(word, "war") == 0) kinds |= TR_DEP_WAR;
      else if (VG_(strcmp)(word, "waw") == 0) kinds |= TR_DEP_WAW;
      else return False;
   }
   clo_deps = kinds;
   return True;
}

static Bool tr_process_cmd_line_option(const HChar* arg)
{
   const HChar* value;
   if VG_STR_CLO (arg, "--trace-dir", clo_trace_dir) {
   } else if VG_BINT_CLO (arg, "--mips", clo_mips, 1, 1000000000) {
   } else if VG_STR_CLO (arg, "--deps", value) {
      if (!parse_deps(value))
         VG_(fmsg_bad_option)(arg, "expected raw, war and waw joined with '+' (raw+war+waw)\n");
   } else if VG_STR_CLO (arg, "--graph-format", clo_graph_format) {
      if (VG_(strcmp)(clo_graph_format, "dot") != 0 && VG_(strcmp)(clo_graph_format, "svg") != 0 &&
          VG_(strcmp)(clo_graph_format, "png") != 0)
         VG_(fmsg_bad_option)(arg, "expected dot, svg or png\n");
   } else if VG_BOOL_CLO (arg, "--task-report", clo_task_report) {
   } else if VG_BOOL_CLO (arg, "--overlap", clo_overlap) {
   } else if VG_BINT_CLO (arg, "--chunks", clo_chunks, 1, 64) {
   } else if VG_BINT_CLO (arg, "--chunk-min", clo_chunk_min, 0, 1LL << 40) {
   } else if VG_BOOL_CLO (arg, "--overlap-shift", clo_overlap_shift) {
   } else if VG_STR_CLO (arg, "--potential-tasks", value) {
      if (VG_(strcmp)(value, "functions") == 0) clo_potential = True;
      else if (VG_(strcmp)(value, "none") == 0) clo_potential = False;
      else VG_(fmsg_bad_option)(arg, "expected functions or none\n");
   } else if VG_BINT_CLO (arg, "--potential-max-calls", clo_potential_max_calls, 1, 100000000) {
   } else if VG_BINT_CLO (arg, "--potential-segment", clo_potential_segment, 100, 1LL << 40) {
   } else if VG_BINT_CLO (arg, "--potential-max-intervals", clo_potential_max_intervals, 16,
                          1000000) {
   } else if VG_STR_CLO (arg, "--collectives", value) {
      if (VG_(strcmp)(value, "keep") == 0) clo_collectives = TR_COLL_KEEP;
      else if (VG_(strcmp)(value, "linear") == 0) clo_collectives = TR_COLL_LINEAR;
      else if (VG_(strcmp)(value, "binomial") == 0) clo_collectives = TR_COLL_BINOMIAL;
      else if (VG_(strcmp)(value, "ring") == 0) clo_collectives = TR_COLL_RING;
      else VG_(fmsg_bad_option)(arg, "expected keep, linear, binomial or ring\n");
   } else if (tr_comm_option(arg) || tr_threadcomm_option(arg)) {
   } else {
      return False;
   }
   return True;
}

static void tr_print_usage(void)
{
   VG_(printf)(
      "    --trace-dir=DIR          write the trace set into DIR [tareador-out]; %%p is the\n"
      "                             process id, %%q{VAR} the value of the variable VAR\n"
      "    --mips=N                 instructions per microsecond of this machine, for the\n"
      "                             replayer to turn bursts into seconds [1000]\n"
      "    --deps=raw[+war][+waw]   task dependencies to find: read-after-write always,\n"
      "                             write-after-read and write-after-write on request [raw]\n"
      "    --graph-format=dot|svg|png  the task graph beside taskgraph.N.dot [dot: only it]\n"
      "    --task-report=yes|no     write the task graph and report at the end [yes]\n"
      "    --overlap=yes|no         also write the overlap-real, overlap-ideal and\n"
      "                             overlap-speculative traces and the production/\n"
      "                             consumption patterns [no]\n"
      "    --chunks=N               chunks per message in the overlap traces (1..64) [4]\n"
      "    --chunk-min=BYTES        no chunk smaller: smaller messages go in fewer chunks,\n"
      "                             or whole (0: no minimum) [32768]\n"
      "    --overlap-shift=yes|no   send chunks when produced, wait for them when needed\n"
      "                             (no: where the call was, as the authentic run) [yes]\n"
      "    --collectives=keep|linear|binomial|ring  collectives in the overlap traces: as\n"
      "                             they are, or their point-to-point transfers (then also\n"
      "                             the authentic-p2p trace: the baseline) [binomial]\n"
      "    --potential-tasks=functions|none  record every call of the program's functions,\n"
      "                             from main, as a potential task (potential.0.txt; for\n"
      "                             tareador-search) instead of tracing tasks [none]\n"
      "    --potential-max-calls=N  calls of one function recorded as nodes; later ones are\n"
      "                             their caller's work [20000]\n"
      "    --potential-max-intervals=N  address intervals of one segment's reads or writes\n"
      "                             before nearby ones are merged [4096]\n"
      "    --potential-segment=N    a segment of a node's own work ends after N instructions\n"
      "                             even without a call (where consumers may wait) [2000]\n");
   tr_comm_print_usage();
   tr_threadcomm_print_usage();
}

static void tr_print_debug_usage(void) { VG_(printf)("    (none)\n"); }

/* ---- The traced thread ------------------------------------------------------------------- */

static HChar* trace_dir;              /* --trace-dir expanded */
static ThreadId traced = VG_INVALID_THREADID;
static ULong last_exit;               /* instruction count when the last MPI call returned */
static ULong burst;                   /* instructions outside MPI calls not yet in the trace */
static Bool in_call;
static HChar call_name[48];  /* the call it is in: a process killed there (a job's time limit
                                ending a deadlock) says which */
static ULong calls_started;  /* tells a call from the next while they wait (check_long_call) */
static Bool traced_by_on;             /* a program without MPI, traced from tareador_ON */
static Bool tasks_requested;          /* tareador_ON came before MPI_Init */

static const HChar* program_name(void)
{
   const HChar* name = VG_(args_the_exename) ? VG_(args_the_exename) : "program";
   const HChar* slash = VG_(strrchr)(name, '/');
   return slash ? slash + 1 : name;
}

/* A process that traces nothing and writes nothing: a child the program forked (and that did
   not exec), a copy of the traced process whose trace files and unwritten buffers it shares
   (its exit once wrote the parent's buffered records a second time), or one MPI_Comm_spawn
   started (its ranks would overwrite the parent job's). What it says at exit, if anything. */
static Bool untraced;
static const HChar* untraced_note;

static void forked_child(ThreadId tid)
{
   untraced = True;
   tr_file_silence();
}

static void forked_parent(ThreadId tid)
{
   if (tr_trace_is_open())
      tr_trace_warning("the program forked a process, which is not traced: its work is in no "
                       "trace (a process that runs another program is traced only with "
                       "--trace-children=yes, and only if that program calls MPI_Init or "
                       "tareador_ON)");
}

/* Whether this process traces: not if another run writes the same rank of the directory. */
static Bool start_tracing(ThreadId tid, Int rank, Int ranks)
{
   static HChar note[640];
   Int holder;
   if (tr_trace_is_open()) return True;
   if (untraced) return False;
   holder = tr_trace_open(trace_dir, rank, ranks, (ULong)clo_mips, program_name());
   if (holder != 0) {
      VG_(snprintf)(note, sizeof note, "rank %d: not traced: process %d (another run) is writing "
                    "rank %d of --trace-dir %s; give this run a directory of its own (or, if no "
                    "run writes there, remove %s/rank-%d.lock)", rank, holder, rank, trace_dir,
                    trace_dir, rank);
      VG_(umsg)("tareador: %s\n", note);
      untraced = True;
      untraced_note = note;
      return False;
   }
   traced = tid;
   last_exit = tr_count_thread(tid);
   tr_overlap_begin(tid, last_exit);
   return True;
}

/* The MPI calls of the threads other than the traced one, which the trace leaves out, and the
   name of the first (said at the end: tests/vg/hybrid.c). */
static ULong other_threads_calls;
static HChar other_threads_call[64];

static Bool from_traced_thread(ThreadId tid)
{
   if (tid == traced) return True;
   tr_trace_warning("MPI called from more than one thread: only the first thread's calls are traced");
   return False;
}

static void warn_other_threads_calls(void)
{
   HChar text[256];
   if (other_threads_calls == 0) return;
   VG_(sprintf)(text,
                "%llu MPI calls of other threads are not in the trace (the first: %s): a replay "
                "of the rank lacks their messages, and may not finish",
                other_threads_calls, other_threads_call);
   tr_trace_warning(text);
   VG_(umsg)("tareador: warning: %s\n", text);
}

static void end_burst(void)
{
   tr_trace_burst(burst);
   burst = 0;
}

/* A rank that has waited LONG_CALL_MS in one call (a deadlock, a peer that died) names it in its
   manifest until the call returns: a rank then killed without warning (a job's time limit, or
   MPICH's launcher after another rank died) says where it was. Checked while a call waits
   (while_in_call), so that calls that return at once cost nothing. */
enum { LONG_CALL_MS = 50 };
static Bool named_in_manifest;

static void check_long_call(void)
{
   static ULong watched;  /* the call seen at the last check, and since when */
   static UInt since_ms;
   UInt now = VG_(read_millisecond_timer)();
   if (watched != calls_started) {
      watched = calls_started;
      since_ms = now;
   } else if (!named_in_manifest && now - since_ms >= LONG_CALL_MS) {
      tr_trace_waiting_in(call_name);
      named_in_manifest = True;
   }
}

/* A call blocked for good, in a system call (an MPI library that yields the core while it polls)
   or polling shared memory without one (as MPICH's do), leaves what waited long enough on disk
   and says where it waits: checked before each system call and at each time slice of the call. */
static void while_in_call(void)
{
   tr_trace_write_due();
   check_long_call();
}

/* A rank computing long after its last records (or polling in a call) writes them out. */
static void time_slice_starts(ThreadId tid, ULong blocks_dispatched)
{
   tr_overlap_slice_starts(tid);
   if (tid != traced) return;
   if (in_call) while_in_call();
   else tr_trace_write_due();
}

static void call_starts(ThreadId tid, const HChar* name)
{
   if (tr_trace_is_open() && tid != traced && other_threads_calls++ == 0)
      VG_(strncpy)(other_threads_call, name ? name : "an MPI call", sizeof other_threads_call - 1);
   if (!tr_trace_is_open() || !from_traced_thread(tid)) return;
   burst += tr_count_thread(tid) - last_exit;
   in_call = True;
   calls_started++;
   VG_(strncpy)(call_name, name ? name : "an MPI call", sizeof call_name - 1);
   tr_trace_write_due();
   tr_tasks_mpi_enter();
   tr_overlap_mpi_enter(tr_count_thread(tid));
}

/* A call that leaves no record (creating a communicator, waiting for a request posted before
   tracing) does not split the burst around it; its own instructions are left out all the same. */
static void call_ends(ThreadId tid, const TrEvent* events, Int n)
{
   Int i;
   if (!tr_trace_is_open() || !from_traced_thread(tid)) return;
   if (n > 0) end_burst();
   for (i = 0; i < n; i++) tr_trace_event(&events[i]);
   tr_tasks_mpi_exit(events, n);
   tr_overlap_mpi_exit(events, n, tr_count_thread(tid));
   tr_trace_count_mpi_call();
   last_exit = tr_count_thread(tid);
   in_call = False;
   if (named_in_manifest) tr_trace_waiting_in(NULL);
   named_in_manifest = False;
}

/* ---- Tasks ------------------------------------------------------------------------------- */

/* Whether an MPI library is loaded: then tracing starts at MPI_Init, whatever tareador_ON says. */
static Bool mpi_loaded(void)
{
   const DebugInfo* di;
   for (di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
      const HChar* soname = VG_(DebugInfo_get_soname)(di);
      if (soname && VG_(strncmp)(soname, "libmpi", 6) == 0) return True;
   }
   return False;
}

static Bool exiting;  /* in tr_fini: no more code runs, none may be discarded */

/* Memory accesses are instrumented only while tasks are traced: the code translated so far
   goes, and is translated again with (or without) the calls to the shadow memory. */
static void retranslate(void)
{
   if (!exiting) VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "tareador");
}

static Bool tasks_ended;  /* tareador_OFF came: tasks are not traced again */

/* Dependencies flow through memory the tool sees: an optimised build keeps locals, a task's
   result among them, in registers, where no dependency is seen (and its register spills can
   make false ones), and it inlines functions, which are then no calls. Said once, when tasks
   (or potential tasks) begin, with what it means for them (`consequences`). */
static void warn_optimised(const HChar* consequences)
{
   HChar text[400];
   if (tr_program_optimisation()[0] == 0) return;
   VG_(snprintf)(text, sizeof text, "the program was compiled with %s: %s",
                 tr_program_optimisation(), consequences);
   tr_trace_warning(text);
   VG_(umsg)("tareador: warning: %s\n", text);
}

static void begin_tasks(ThreadId tid)
{
   if (tasks_ended || tr_tasks_active() || !tr_trace_is_open() || tid != traced) return;
   warn_optimised("locals kept in registers (a task's result among them) make no dependency, "
                  "and register spills can make false ones; trace a -O0 -g build for the task "
                  "graph and --emit-source");
   tr_tasks_begin(tid, clo_deps);
   tr_trace_task_dependencies(clo_deps);
   retranslate();
}

/* Runs the task report command on this rank's tasks stream (graph, profile, porting hints). */
static void report_tasks(void)
{
   const HChar* command = VG_(getenv)("TAREADOR_TASKS_COMMAND");
   HChar rank[32], format[32];
   const HChar* argv[7];
   Int n = 0, pid, status = 0;
   if (!clo_task_report) return;
   if (command == NULL || *command == 0) command = TAREADOR_TASKS_COMMAND;
   VG_(sprintf)(rank, "--rank=%d", tr_trace_rank());
   VG_(sprintf)(format, "--graph-format=%s", clo_graph_format);
   argv[n++] = command;
   argv[n++] = rank;
   argv[n++] = format;
   if (!traced_by_on) argv[n++] = "--quiet"; /* ranks of an MPI job would interleave */
   argv[n++] = tr_trace_dir();
   argv[n] = NULL;
   pid = VG_(fork)();
   if (pid == 0) {
      VG_(execv)(command, argv);
      VG_(exit)(127);
   }
   if (pid < 0 || VG_(waitpid)(pid, &status, 0) != pid || status != 0)
      VG_(umsg)("tareador: %s did not run (status %d): run it on %s for the task graph and "
                "report\n", command, status, tr_trace_dir());
}

static Bool report_due;  /* the tasks stream is complete: report once the trace is closed */

static void end_tasks(Bool complete)
{
   if (!tr_tasks_active()) return;
   tasks_ended = True;
   tr_tasks_finish(complete);
   retranslate();
   report_due = complete;
}

/* The communication recordings cover the run until the trace closes. */
static void write_communication(void)
{
   tr_comm_write();
   tr_threadcomm_write();
}

/* Threads other than the traced one that computed (OpenMP in a hybrid rank) are in no burst:
   said when their instructions are a tenth of the bursts' or more. */
static void warn_untraced_computation(void)
{
   ULong bursts = tr_trace_burst_instructions(), others = tr_threads_instructions_except(traced);
   HChar text[256];
   /* (a communication recording's trace is incidental: its threads are what it records) */
   if (!tr_program_is_mpi() && !tasks_ended && !tr_tasks_active()) return;
   if (others < 1000000 || others * 10 < bursts) return;
   VG_(sprintf)(text,
                "other threads executed %llu instructions (%llu%% of the %llu of the traced "
                "thread's bursts), which no burst holds: a rank is traced as one thread (a "
                "hybrid MPI+OpenMP rank's bursts are its master thread's)",
                others, bursts ? others * 100 / bursts : 0, bursts);
   tr_trace_warning(text);
   VG_(umsg)("tareador: warning: %s\n", text);
}

/* Ends the trace; the task report then reads a complete trace set. */
static void close_trace(Bool complete, const HChar* reason)
{
   warn_untraced_computation();
   warn_other_threads_calls();
   tr_overlap_finish(complete, tr_count_thread(traced));
   write_communication();
   tr_trace_close(complete, reason);
   if (report_due) report_tasks();
   report_due = False;
}

/* One trace covers the first tareador_ON to the first tareador_OFF: a program that switches
   tracing on again (around each step of a loop, say) is told, once, that the rest is not in it. */
static void tareador_on_again(void)
{
   static Bool said;
   const HChar* text = "tareador_ON after tareador_OFF: the trace covers the first tareador_ON "
                       "to the first tareador_OFF; this one and what follows are not traced "
                       "(put one pair around the whole region to study)";
   if (said) return;
   said = True;
   VG_(umsg)("tareador: warning: %s\n", text);
   if (tr_trace_is_open()) tr_trace_warning(text);
}

static void tareador_on(ThreadId tid)
{
   if (tasks_ended || (traced_by_on && !tr_trace_is_open())) {
      tareador_on_again();
      return;
   }
   if (!tr_trace_is_open()) {
      if (mpi_loaded()) {
         tasks_requested = True;  /* rank and size come with MPI_Init */
         return;
      }
      if (!start_tracing(tid, 0, 1)) return;
      traced_by_on = True;
   }
   begin_tasks(tid);
}

/* --potential-tasks: the program's main was called, and returned (or the program exits). */
static void potential_begins(ThreadId tid)
{
   traced_by_on = start_tracing(tid, 0, 1);
   if (traced_by_on)
      warn_optimised("the functions it inlined are no potential tasks, and locals kept in "
                     "registers (a result among them) make no dependency; record a -O0 -g "
                     "build for tareador-search");
}

static void potential_ends(void)
{
   if (untraced) return;
   burst += tr_count_thread(traced) - last_exit;
   last_exit = tr_count_thread(traced);
   end_burst();
   close_trace(True, "");
}

static void tareador_off(void)
{
   if (clo_potential) {
      tr_potential_finish(True);
      return;
   }
   end_tasks(True);
   if (traced_by_on) {
      burst += tr_count_thread(traced) - last_exit;
      end_burst();
      close_trace(True, "");
   }
}

/* The task name the program passed at `a` to `call`, read without trusting it; what was wrong
   with it goes into the rank's warnings, once. */
static const HChar* task_name(const HChar* call, Addr a, HChar name[TR_NAME_MAX + 1])
{
   HChar warning[160];
   UInt problems = tr_client_name(a, name);
   if (problems & (TR_NAME_NULL | TR_NAME_UNREADABLE)) {
      if (problems & TR_NAME_NULL) VG_(snprintf)(warning, sizeof warning, "%s(NULL)", call);
      else VG_(snprintf)(warning, sizeof warning, "%s(%#lx): the name is not readable", call, a);
      if (name[0] == 0 && VG_(strcmp)(call, "tareador_start_task") == 0)
         VG_(strcat)(warning, ": the task is named \"unnamed\"");
      tr_trace_warning(warning);
   }
   if (problems & TR_NAME_CUT)
      tr_trace_warning("task names longer than " TR_NAME_MAX_TEXT " bytes are cut there");
   if (problems & TR_NAME_NOT_UTF8)
      tr_trace_warning("task names that are not UTF-8 have each invalid byte replaced by U+FFFD");
   return name;
}

static Bool tr_handle_client_request(ThreadId tid, UWord* args, UWord* ret)
{
   HChar reason[64];
   HChar name[TR_NAME_MAX + 1];
   if (untraced && VG_IS_TOOL_USERREQ('T', 'R', args[0])) {
      *ret = 0;
      return True;
   }
   switch (args[0]) {
      case TR_REQ_ON:
         if (!clo_potential) tareador_on(tid);
         break;
      case TR_REQ_OFF:
         if (!clo_potential) tareador_off();
         break;
      case TR_REQ_START_TASK:
         if (clo_potential) {
            tr_potential_region_start(tid, task_name("tareador_start_task", args[1], name));
            break;
         }
         /* In an MPI program the first task starts task tracing; without MPI, tareador_ON. */
         if (!traced_by_on) begin_tasks(tid);
         if (tid == traced && tr_tasks_active())
            tr_tasks_start(task_name("tareador_start_task", args[1], name));
         break;
      case TR_REQ_END_TASK:
         if (clo_potential) {
            tr_potential_region_end();
            break;
         }
         if (tid == traced && tr_tasks_active())
            tr_tasks_end(args[1] ? task_name("tareador_end_task", args[1], name) : NULL);
         break;
      case TR_REQ_DISABLE_OBJECT:
      case TR_REQ_ENABLE_OBJECT:
         tr_tasks_disable_object((Addr)args[1], args[0] == TR_REQ_DISABLE_OBJECT);
         break;
      case TR_REQ_MPI_INIT_BEGINS:
         tr_objects_mpi_allocates(True);
         tr_threads_in_library(tid, True);
         break;
      case TR_REQ_MPI_INIT:
         tr_objects_mpi_allocates(False);
         tr_threads_in_library(tid, False);
         if (start_tracing(tid, (Int)args[1], (Int)args[2]) && tasks_requested) begin_tasks(tid);
         break;
      case TR_REQ_MPI_SPAWNED:
         tr_objects_mpi_allocates(False);
         tr_threads_in_library(tid, False);
         untraced = True;
         untraced_note = "started by MPI_Comm_spawn: not traced (the spawned job's ranks would "
                         "overwrite the parent job's in the trace set)";
         break;
      case TR_REQ_MPI_ENTER:
         tr_threads_in_library(tid, True);
         call_starts(tid, (const HChar*)args[1]);
         break;
      case TR_REQ_MPI_EXIT:
         tr_threads_in_library(tid, False);
         call_ends(tid, (const TrEvent*)args[1], (Int)args[2]);
         break;
      case TR_REQ_MPI_FINALIZE:
         end_burst();
         end_tasks(True);
         close_trace(True, "");
         break;
      case TR_REQ_MPI_ABORT:
         VG_(sprintf)(reason, "MPI_Abort with error code %d", (Int)args[1]);
         end_burst();
         end_tasks(False);
         close_trace(False, reason);
         break;
      case TR_REQ_COMM_DEF:
         if (tr_trace_is_open()) tr_trace_communicator((Int)args[1], (Int)args[2], (const Int*)args[3]);
         break;
      case TR_REQ_WARN:
         if (tr_trace_is_open()) tr_trace_warning((const HChar*)args[1]);
         break;
      default:
         return False;
   }
   *ret = 0;
   return True;
}

/* ---- Start and end ----------------------------------------------------------------------- */

/* How the process ends, for the manifest of a trace that stops early: a tool learns of neither
   the exit status nor a fatal signal, so it watches the exit syscall and the signals delivered. */
static Bool exit_called;
static Int exit_status;
static Int last_fault_signal;

static void tr_pre_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs)
{
   /* A communication recording of a program that never says when to trace covers all of it:
      its trace set is made as it exits. */
   if (syscallno == __NR_exit_group && traced == VG_INVALID_THREADID &&
       (tr_comm_enabled() || tr_threadcomm_enabled())) {
      traced_by_on = start_tracing(tid, 0, 1);
   }
   tr_overlap_syscall(tid, syscallno, args);
   /* (A system call may block for good.) */
   if (in_call && tid == traced) while_in_call();
   if (syscallno == __NR_exit_group || syscallno == __NR_exit) {
      exit_called = True;
      exit_status = (Int)args[0];
      if (tid == traced) tr_count_freeze(tid);
   }
}

static void tr_post_syscall(ThreadId tid, UInt syscallno, UWord* args, UInt nArgs, SysRes res) {}

static void tr_pre_deliver_signal(ThreadId tid, Int signal, Bool alt_stack)
{
   if (signal == VKI_SIGSEGV || signal == VKI_SIGBUS || signal == VKI_SIGFPE ||
       signal == VKI_SIGILL || signal == VKI_SIGABRT || signal == VKI_SIGTERM ||
       signal == VKI_SIGINT)
      last_fault_signal = signal;
}

/* Valgrind tells of the memory mapped before the program runs once it has read the debug
   information of what is mapped: the program's variables are read then. */
static void tr_new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di_handle)
{
   tr_program_read_variables();
}

static void tr_post_clo_init(void)
{
   tr_program_defer_variables();
   trace_dir = VG_(expand_file_name)("--trace-dir", clo_trace_dir);
   /* Made before the program runs: a directory that cannot be is said at once (and the run
      stops), not after a run whose trace is lost. */
   if (!tr_trace_make_directory(trace_dir)) {
      VG_(fmsg)("tareador: --trace-dir: cannot create the directory %s, or write into it\n",
                trace_dir);
      VG_(exit)(1);
   }
   tr_overlap_configure(clo_overlap, (UInt)clo_chunks, (ULong)clo_chunk_min, clo_overlap_shift,
                        clo_collectives);
   tr_potential_configure(clo_potential, (UInt)clo_potential_max_calls,
                          (UInt)clo_potential_max_intervals, (ULong)clo_potential_segment);
   if (clo_potential) {
      /* (valgrind's fmsg_bad_option stops the run only while the options are read) */
      if (clo_overlap) {
         VG_(fmsg)("tareador: --overlap=yes is not for --potential-tasks\n");
         VG_(exit)(1);
      }
      tr_potential_set_hooks(potential_begins, potential_ends);
      /* A superblock must end at each call for the call to be seen: VEX may otherwise follow
         a call into its callee within one superblock. */
      VG_(clo_vex_control).guest_chase = False;
      /* Every block is instrumented from the start: code translated before main (the C
         library's memcpy, say) runs again inside it. */
      tr_memory_potential();
   }
   tr_comm_configure();
   tr_threadcomm_configure();
}

static void tr_fini(Int exitcode)
{
   HChar reason[160], inside[64] = "";
   exiting = True;
   if (untraced) {
      if (untraced_note) VG_(umsg)("tareador: %s %s\n", program_name(), untraced_note);
      return;
   }
   if (traced == VG_INVALID_THREADID) {
      VG_(umsg)("tareador: %s called neither MPI_Init nor tareador_ON: nothing traced\n",
                program_name());
      tr_trace_unmake_directory(trace_dir);
      return;
   }
   /* A program traced from tareador_ON that exits normally without tareador_OFF ends there. */
   if (traced_by_on && exit_called && !last_fault_signal && tr_trace_is_open()) {
      tareador_off();
      return;
   }
   end_tasks(False);
   tr_potential_finish(False);
   /* The thread is gone: its count is known if it called exit, else the last call's stands. */
   tr_overlap_finish(False, exit_called ? tr_count_thread(traced) : last_exit);
   if (in_call) VG_(sprintf)(inside, ", inside %s", call_name);
   if (exit_called)
      VG_(sprintf)(reason, "exited with status %d without MPI_Finalize%s", exit_status, inside);
   else if (last_fault_signal)
      VG_(sprintf)(reason, "killed by signal %d%s", last_fault_signal, inside);
   else
      VG_(sprintf)(reason, "killed by a signal%s", inside);
   if (tr_trace_is_open()) warn_untraced_computation();
   write_communication();
   tr_trace_close(False, reason);
}

static void tr_pre_clo_init(void)
{
   VG_(details_name)("tareador");
   VG_(details_version)("0.1.0");
   VG_(details_description)("MPI and task traces for what-if replay");
   VG_(details_copyright_author)("Copyright (C) the Tareador authors.");
   VG_(details_bug_reports_to)("the Tareador issue tracker");
   VG_(details_avg_translation_sizeB)(275);

   VG_(basic_tool_funcs)(tr_post_clo_init, tr_instrument, tr_fini);
   VG_(needs_command_line_options)(tr_process_cmd_line_option, tr_print_usage,
                                   tr_print_debug_usage);
   VG_(needs_client_requests)(tr_handle_client_request);
   VG_(needs_syscall_wrapper)(tr_pre_syscall, tr_post_syscall);
   VG_(track_start_client_code)(time_slice_starts);
   VG_(track_pre_deliver_signal)(tr_pre_deliver_signal);
   VG_(atfork)(NULL, forked_parent, forked_child);
   VG_(track_new_mem_startup)(tr_new_mem_startup);
   tr_objects_pre_clo_init();
   tr_threads_pre_clo_init();
   /* Local variables are named from the debug information's variables, which valgrind reads
      only when asked before the options (--read-var-info=yes|no overrides): asked for programs
      compiled with -g that are not MPI programs (tasks studies; MPI ranks are spared reading
      them), and read for the program alone (tr_program_defer_variables). */
   tr_program_examine();
   if (tr_program_has_debug_info() && !tr_program_is_mpi()) VG_(needs_var_info)();
}

VG_DETERMINE_INTERFACE_VERSION(tr_pre_clo_init)
