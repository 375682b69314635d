/* tr_trace.c — the trace-set writer of the tool. Plain text (tr_text.c), written with
   VG_(write): the tool has no libc. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "tracefmt/set_layout.h"
#include "tr_file.h"
#include "tr_tasks.h"
#include "tr_text.h"
#include "tr_trace.h"

#define TR_FORMAT_VERSION 5

/* ---- Files ------------------------------------------------------------------------------ */

/* Runs /bin/COMMAND with `argv` (the tool API has no mkdir, no rmdir); whether it succeeded. */
static Bool run_command(const HChar* path, const HChar** argv)
{
   Int status = 0;
   Int pid = VG_(fork)();
   if (pid == 0) {
      VG_(execv)(path, argv);
      VG_(exit)(127);
   }
   return pid > 0 && VG_(waitpid)(pid, &status, 0) == pid && status == 0;
}

static Bool made_directory;  /* tr_trace_make_directory made it: it did not exist */

/* Whether a file can be made in `dir`: a directory that exists may still refuse (its mode, a
   read-only or special file system), which a run would only learn when it writes. */
static Bool writable(const HChar* dir)
{
   HChar* probe = VG_(malloc)("tareador.trace.probe", VG_(strlen)(dir) + 48);
   SysRes fd;
   VG_(sprintf)(probe, "%s/.tareador-probe-%d", dir, VG_(getpid)());
   fd = VG_(open)(probe, VKI_O_CREAT | VKI_O_EXCL | VKI_O_WRONLY, 0600);
   if (!sr_isError(fd)) {
      VG_(close)(sr_Res(fd));
      VG_(unlink)(probe);
   }
   VG_(free)(probe);
   return !sr_isError(fd);
}

Bool tr_trace_make_directory(const HChar* dir)
{
   const HChar* argv[] = {"mkdir", "-p", "--", dir, NULL};
   struct vg_stat st;
   made_directory = sr_isError(VG_(stat)(dir, &st));
   return run_command("/bin/mkdir", argv) && writable(dir);
}

/* Only if empty: under --trace-children=yes the launcher's process ends after the ranks that
   filled the directory. */
void tr_trace_unmake_directory(const HChar* dir)
{
   const HChar* argv[] = {"rmdir", "--ignore-fail-on-non-empty", "--", dir, NULL};
   if (made_directory) run_command("/bin/rmdir", argv);
}

/* ---- State of this rank ------------------------------------------------------------------ */

typedef struct {
   Int id, size;
   Int* world_ranks;
} Communicator;

static struct {
   Bool open, closed;
   HChar* dir;
   HChar run[48];  /* this run's id: the manifest says which run wrote the set */
   HChar* program;
   Int rank, ranks;
   ULong mips;
   TrFile stream;
   const HChar* kinds[6];  /* of the set: authentic, then the ones opened later (the overlap
                              study's four, tasks) */
   Int n_kinds;
   ULong bursts, mpi_calls, burst_instructions;
   Bool speculated;  /* the speculative stream's statistics (tr_trace_speculation) are due */
   ULong spec_chunks, spec_ahead, spec_missed, spec_stalls;
   UInt task_dependencies; /* the kinds tasks mode finds (TrDepKind bits); 0: no tasks */
   Communicator* comms;
   Int n_comms, max_comms;
   HChar** opaque;  /* names of the opaque calls met, each once */
   Int n_opaque, max_opaque;
   HChar** warnings;
   Int n_warnings, max_warnings;
   HChar inside[64];  /* a running rank's manifest reason: the call it has long waited in */
} rank_state = {.stream = {.fd = -1}};

/* Appends `item` to a growing array of pointers. */
static void push(HChar*** items, Int* n, Int* max, HChar* item)
{
   if (*n == *max) {
      *max = *max ? 2 * *max : 8;
      *items = VG_(realloc)("tareador.list", *items, *max * sizeof(HChar*));
   }
   (*items)[(*n)++] = item;
}

/* The one copy of `name` in `list` (added if new). */
static HChar* find_or_add(HChar*** list, Int* n, Int* max, const HChar* name)
{
   Int i;
   for (i = 0; i < *n; i++)
      if (VG_(strcmp)((*list)[i], name) == 0) return (*list)[i];
   push(list, n, max, VG_(strdup)("tareador.name", name));
   return (*list)[*n - 1];
}

static HChar* path_in_dir(const HChar* name)
{
   HChar* path = VG_(malloc)("tareador.path", VG_(strlen)(rank_state.dir) + VG_(strlen)(name) + 2);
   VG_(sprintf)(path, "%s/%s", rank_state.dir, name);
   return path;
}

static void write_set_manifest(void)
{
   TrText text = {0};
   HChar* path = path_in_dir(TR_SET_MANIFEST);
   Int i;
   tr_text_append(&text, "# Tareador trace set: see docs/trace-format.md\nformat = \"tareador-trace-set\"\n");
   tr_text_printf(&text, "version = %d\nname = ", TR_FORMAT_VERSION);
   tr_text_quoted(&text, rank_state.program);
   tr_text_printf(&text, "\nranks = %d\nmips = %llu.0\nrun = \"%s\"\nkinds = [", rank_state.ranks,
                  rank_state.mips, rank_state.run);
   for (i = 0; i < rank_state.n_kinds; i++) {
      if (i) tr_text_append(&text, ", ");
      tr_text_quoted(&text, rank_state.kinds[i]);
   }
   tr_text_append(&text, "]\n");
   tr_file_replace(path, &text);
   tr_text_free(&text);
   VG_(free)(path);
}

static void write_rank_manifest(const HChar* status, const HChar* reason);

/* Opens KIND.RANK.trc with its header line. */
static Bool open_stream(const HChar* kind, TrFile* file)
{
   HChar name[64];
   HChar* path;
   Bool ok;
   VG_(sprintf)(name, TR_SET_STREAM, kind, rank_state.rank);
   path = path_in_dir(name);
   ok = tr_file_create(file, path);
   VG_(free)(path);
   tr_text_printf(&file->text, "# tareador stream v1 kind=%s rank=%d\n", kind, rank_state.rank);
   return ok;
}

/* A run reusing a trace directory: what an earlier run left of this rank and this run may not
   write again goes (the set's readers would take it for this run's). Other ranks' files are
   theirs to remove; files of ranks past this run's are told apart by the manifest's ranks, and
   replays kept in the set by the manifest's run. */
static void remove_in_dir(const HChar* name)
{
   HChar* path = path_in_dir(name);
   VG_(unlink)(path);
   VG_(free)(path);
}

static void forget_earlier_run(void)
{
   static const HChar* const kStreams[] = {"overlap-real", "overlap-ideal", "overlap-speculative",
                                            "authentic-p2p", "tasks"};
   static const HChar* const kTaskFiles[][2] = {{TR_SET_TASKGRAPH, "dot"},
      {TR_SET_TASKGRAPH, "svg"}, {TR_SET_TASKGRAPH, "png"}, {TR_SET_TASKREPORT, "txt"},
      {TR_SET_TASKREPORT, "json"}};
   HChar name[64];
   UInt i;
   VG_(sprintf)(name, TR_SET_RANK_MANIFEST, rank_state.rank);
   remove_in_dir(name);
   VG_(sprintf)(name, TR_SET_PATTERNS, rank_state.rank);
   remove_in_dir(name);
   for (i = 0; i < sizeof kStreams / sizeof kStreams[0]; i++) {
      VG_(sprintf)(name, TR_SET_STREAM, kStreams[i], rank_state.rank);
      remove_in_dir(name);
   }
   for (i = 0; i < sizeof kTaskFiles / sizeof kTaskFiles[0]; i++) {
      VG_(sprintf)(name, kTaskFiles[i][0], rank_state.rank, kTaskFiles[i][1]);
      remove_in_dir(name);
   }
}

/* The lock of this rank of the set: a file that holds the pid of the process writing it. Two
   jobs into one directory (the default one, from two terminals) once wrote each other's ranks
   into one mixed set, each saying it succeeded. */
static HChar* lock_path(void)
{
   HChar name[64];
   VG_(sprintf)(name, TR_SET_LOCK, rank_state.rank);
   return path_in_dir(name);
}

/* The pid in the lock at `path` if that process lives, else 0. */
static Int live_holder(const HChar* path)
{
   HChar text[32] = "", proc[48];
   struct vg_stat st;
   Int pid;
   SysRes fd = VG_(open)(path, VKI_O_RDONLY, 0);
   if (sr_isError(fd)) return 0;
   VG_(read)(sr_Res(fd), text, sizeof text - 1);
   VG_(close)(sr_Res(fd));
   pid = (Int)VG_(strtoll10)(text, NULL);
   VG_(sprintf)(proc, "/proc/%d", pid);
   return pid > 0 && pid != VG_(getpid)() && !sr_isError(VG_(stat)(proc, &st)) ? pid : 0;
}

/* Takes the rank's lock: 0, or the pid of the live process that holds it. A lock left by a
   process that died is taken over. */
static Int lock_rank(void)
{
   HChar* path = lock_path();
   HChar pid[32];
   Int holder = 0, attempt;
   for (attempt = 0; attempt < 2; attempt++) {
      SysRes fd = VG_(open)(path, VKI_O_CREAT | VKI_O_EXCL | VKI_O_WRONLY, 0644);
      if (!sr_isError(fd)) {
         VG_(sprintf)(pid, "%d\n", VG_(getpid)());
         VG_(write)(sr_Res(fd), pid, (Int)VG_(strlen)(pid));
         VG_(close)(sr_Res(fd));
         break;
      }
      if ((holder = live_holder(path)) != 0) break;
      VG_(unlink)(path);
   }
   VG_(free)(path);
   return holder;
}

static void unlock_rank(void)
{
   HChar* path = lock_path();
   VG_(unlink)(path);
   VG_(free)(path);
}

Int tr_trace_open(const HChar* dir, Int rank, Int ranks, ULong mips, const HChar* program)
{
   struct vki_timeval now;
   Int holder;
   tl_assert(!rank_state.open);
   rank_state.dir = VG_(strdup)("tareador.dir", dir);
   rank_state.rank = rank;
   if ((holder = lock_rank()) != 0) return holder;
   rank_state.program = VG_(strdup)("tareador.program", program);
   rank_state.ranks = ranks;
   rank_state.mips = mips;
   VG_(gettimeofday)(&now, NULL);
   VG_(sprintf)(rank_state.run, "%ld.%06ld-%d", (long)now.tv_sec, (long)now.tv_usec,
                VG_(getpid)());
   forget_earlier_run();
   rank_state.kinds[rank_state.n_kinds++] = "authentic";
   if (rank == 0) write_set_manifest();
   /* Until the end rewrites it, the rank's manifest says that the process did not finish: what
      a process killed without warning leaves. */
   write_rank_manifest("running", rank_state.inside);
   open_stream("authentic", &rank_state.stream);
   rank_state.open = True;
   return 0;
}

Bool tr_trace_is_open(void) { return rank_state.open && !rank_state.closed; }

Bool tr_trace_open_kind(const HChar* kind, TrFile* file)
{
   tl_assert(tr_trace_is_open() &&
             rank_state.n_kinds < (Int)(sizeof rank_state.kinds / sizeof rank_state.kinds[0]));
   rank_state.kinds[rank_state.n_kinds++] = kind;
   if (rank_state.rank == 0) write_set_manifest();
   return open_stream(kind, file);
}

Bool tr_trace_create(const HChar* name, TrFile* file)
{
   HChar* path = path_in_dir(name);
   Bool ok = tr_file_create(file, path);
   VG_(free)(path);
   return ok;
}

/* ---- Records ----------------------------------------------------------------------------- */

/* A record waiting behind a receive whose source is not known yet. */
typedef struct {
   Bool is_burst;
   ULong instructions;
   TrEvent event;
} Held;

static Held* held;
static Int n_held, max_held;

static void write_held(const Held* h)
{
   if (h->is_burst) tr_text_burst(&rank_state.stream.text, h->instructions);
   else tr_text_mpi(&rank_state.stream.text, &h->event);
   tr_file_write_due(&rank_state.stream);
}

void tr_trace_write_due(void)
{
   if (tr_trace_is_open()) tr_file_write_due(&rank_state.stream);
}

void tr_trace_waiting_in(const HChar* call)
{
   if (!tr_trace_is_open()) return;
   if (call) VG_(snprintf)(rank_state.inside, sizeof rank_state.inside, "inside %s", call);
   else rank_state.inside[0] = 0;
   write_rank_manifest("running", rank_state.inside);
}

static Bool unresolved(const Held* h)
{
   return !h->is_burst && h->event.kind == TR_EV_RECV && h->event.peer < 0;
}

/* Writes the held records up to the first receive still unresolved. */
static void release_held(void)
{
   Int i = 0, j;
   while (i < n_held && !unresolved(&held[i])) write_held(&held[i++]);
   for (j = i; j < n_held; j++) held[j - i] = held[j];
   n_held -= i;
}

static void hold(Bool is_burst, ULong instructions, const TrEvent* event)
{
   if (n_held == max_held) {
      max_held = max_held ? 2 * max_held : 64;
      held = VG_(realloc)("tareador.held", held, max_held * sizeof(Held));
   }
   held[n_held].is_burst = is_burst;
   held[n_held].instructions = instructions;
   if (event) held[n_held].event = *event;
   n_held++;
   release_held();
}

/* Names of collectives, which the records keep until written. */
static HChar** collective_names;
static Int n_collective_names, max_collective_names;

void tr_trace_burst(ULong instructions)
{
   if (!tr_trace_is_open() || instructions == 0) return;
   rank_state.bursts++;
   rank_state.burst_instructions += instructions;
   hold(True, instructions, NULL);
}

const HChar* tr_trace_keep_name(const TrEvent* event)
{
   if (event->kind == TR_EV_CALL) {
      Int known = rank_state.n_opaque;
      const HChar* name = find_or_add(&rank_state.opaque, &rank_state.n_opaque,
                                      &rank_state.max_opaque, event->name);
      /* The manifest lists every name the stream uses, whenever the process dies. */
      if (rank_state.n_opaque > known && tr_trace_is_open())
         write_rank_manifest("running", rank_state.inside);
      return name;
   }
   if (event->kind == TR_EV_COLL)
      return find_or_add(&collective_names, &n_collective_names, &max_collective_names,
                         event->name);
   return event->name;
}

void tr_trace_event(const TrEvent* event)
{
   TrEvent e = *event;
   Int i;
   if (!tr_trace_is_open()) return;
   e.name = tr_trace_keep_name(event);  /* names live in client memory */
   if (e.kind == TR_EV_RESOLVE) {
      Int kept = 0;
      for (i = 0; i < n_held; i++) {
         if (unresolved(&held[i]) && held[i].event.request == e.request) {
            if (e.peer == TR_PEER_CANCELLED) continue;  /* it never happened */
            held[i].event.peer = e.peer;
            held[i].event.tag = e.tag;
         }
         held[kept++] = held[i];
      }
      n_held = kept;
      release_held();
      return;
   }
   hold(False, 0, &e);
}

void tr_trace_count_mpi_call(void) { rank_state.mpi_calls++; }

void tr_trace_tasks_summary(ULong instances, ULong types, ULong dependencies)
{
   VG_(umsg)("tareador: rank %d: %llu task instances of %llu types (the main task included), "
             "%llu dependencies -> %s/tasks.%d.trc\n",
             rank_state.rank, instances, types, dependencies, rank_state.dir, rank_state.rank);
}

ULong tr_trace_burst_instructions(void) { return rank_state.burst_instructions; }

const HChar* tr_trace_dir(void) { return rank_state.dir; }
Int tr_trace_rank(void) { return rank_state.rank; }

void tr_trace_communicator(Int id, Int size, const Int* world_ranks)
{
   Int i;
   Communicator* c;
   for (i = 0; i < rank_state.n_comms; i++)
      if (rank_state.comms[i].id == id) return;
   if (rank_state.n_comms == rank_state.max_comms) {
      rank_state.max_comms = rank_state.max_comms ? 2 * rank_state.max_comms : 8;
      rank_state.comms = VG_(realloc)("tareador.comms", rank_state.comms,
                                      rank_state.max_comms * sizeof(Communicator));
   }
   c = &rank_state.comms[rank_state.n_comms++];
   c->id = id;
   c->size = size;
   c->world_ranks = VG_(malloc)("tareador.comm", size * sizeof(Int));
   VG_(memcpy)(c->world_ranks, world_ranks, size * sizeof(Int));
   if (tr_trace_is_open()) write_rank_manifest("running", rank_state.inside);
}

const Int* tr_trace_comm_members(Int id, Int* size)
{
   Int i;
   for (i = 0; i < rank_state.n_comms; i++)
      if (rank_state.comms[i].id == id) {
         *size = rank_state.comms[i].size;
         return rank_state.comms[i].world_ranks;
      }
   *size = 0;
   return NULL;
}

void tr_trace_warning(const HChar* text)
{
   find_or_add(&rank_state.warnings, &rank_state.n_warnings, &rank_state.max_warnings, text);
}

/* ---- End --------------------------------------------------------------------------------- */

static void list(TrText* text, HChar** items, Int n)
{
   Int i;
   tr_text_append(text, "[");
   for (i = 0; i < n; i++) {
      if (i) tr_text_append(text, ", ");
      tr_text_quoted(text, items[i]);
   }
   tr_text_append(text, "]\n");
}

/* status: "running" (what the set says of a process that never got to the end), "complete" or
   "truncated" (with the reason). */
static void write_rank_manifest(const HChar* status, const HChar* reason)
{
   TrText text = {0};
   HChar name[64];
   HChar* path;
   Int i, j;
   VG_(sprintf)(name, TR_SET_RANK_MANIFEST, rank_state.rank);
   path = path_in_dir(name);
   tr_text_printf(&text, "rank = %d\nstatus = \"%s\"\nreason = ", rank_state.rank, status);
   tr_text_quoted(&text, reason);
   tr_text_printf(&text, "\nthreads = 1\ninstructions = %llu\nbursts = %llu\nmpi_calls = %llu\n",
                  rank_state.burst_instructions, rank_state.bursts, rank_state.mpi_calls);
   tr_text_append(&text, "opaque_calls = ");
   list(&text, rank_state.opaque, rank_state.n_opaque);
   tr_text_append(&text, "warnings = ");
   list(&text, rank_state.warnings, rank_state.n_warnings);
   if (rank_state.task_dependencies)
      tr_text_printf(&text, "dependencies = \"raw%s%s\"\n",
                     rank_state.task_dependencies & TR_DEP_WAR ? "+war" : "",
                     rank_state.task_dependencies & TR_DEP_WAW ? "+waw" : "");
   if (rank_state.speculated)
      tr_text_printf(&text, "\n[speculation]\nchunks = %llu\nsent_ahead = %llu\nmisspeculated = %llu\n"
                     "stalls = %llu\n", rank_state.spec_chunks, rank_state.spec_ahead,
                     rank_state.spec_missed, rank_state.spec_stalls);
   for (i = 0; i < rank_state.n_comms; i++) {
      Communicator* c = &rank_state.comms[i];
      tr_text_printf(&text, "\n[[communicator]]\nid = %d\ntasks = [", c->id);
      for (j = 0; j < c->size; j++) tr_text_printf(&text, "%s%d", j ? ", " : "", c->world_ranks[j]);
      tr_text_append(&text, "]\n");
   }
   tr_file_replace(path, &text);
   tr_text_free(&text);
   VG_(free)(path);
}

void tr_trace_task_dependencies(UInt kinds)
{
   rank_state.task_dependencies = kinds;
}

void tr_trace_speculation(ULong chunks, ULong ahead, ULong missed, ULong stalls)
{
   rank_state.speculated = True;
   rank_state.spec_chunks = chunks;
   rank_state.spec_ahead = ahead;
   rank_state.spec_missed = missed;
   rank_state.spec_stalls = stalls;
}

void tr_trace_close(Bool complete, const HChar* reason)
{
   HChar speculation[128] = "";
   Int i;
   if (!rank_state.open || rank_state.closed) return;
   /* A receive from an unknown source whose source never became known (it never completed, or
      its request was freed) names no sender: it is left out, as a cancelled one is, with a
      warning. */
   for (i = 0; i < n_held; i++) {
      if (unresolved(&held[i])) {
         HChar text[256];
         VG_(sprintf)(text,
                      "a receive from MPI_ANY_SOURCE (request %lld) never completed (or its "
                      "request was freed): its source is not known, and it is left out",
                      held[i].event.request);
         tr_trace_warning(text);
         continue;
      }
      write_held(&held[i]);
   }
   n_held = 0;
   if (tr_file_failure()) {  /* the trace lost records: it stops where the disk filled */
      complete = False;
      reason = tr_file_failure();
   }
   rank_state.closed = True;
   if (complete) tr_text_record(&rank_state.stream.text, "end");
   tr_text_end_records(&rank_state.stream.text);
   tr_file_close(&rank_state.stream);
   write_rank_manifest(complete ? "complete" : "truncated", complete ? "" : reason);
   unlock_rank();
   if (rank_state.speculated)
      VG_(sprintf)(speculation, "; speculation: %llu chunks, %llu sent ahead, %llu mis-speculated, %llu stalls",
                   rank_state.spec_chunks, rank_state.spec_ahead, rank_state.spec_missed,
                   rank_state.spec_stalls);
   VG_(umsg)("tareador: rank %d: %llu bursts, %llu MPI calls, %llu instructions%s%s%s -> %s/authentic.%d.trc\n",
             rank_state.rank, rank_state.bursts, rank_state.mpi_calls,
             rank_state.burst_instructions, complete ? "" : ", truncated: ",
             complete ? "" : reason, speculation, rank_state.dir, rank_state.rank);
}
