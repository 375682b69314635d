/* tr_trace.c — the trace-set writer of the tool. Plain text, written with VG_(write) through one
   buffer: the tool has no libc. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "tr_trace.h"

#define TR_FORMAT_VERSION 1
#define BUFFER_SIZE (64 * 1024)

/* ---- Files ------------------------------------------------------------------------------ */

typedef struct {
   Int fd;
   Int used;
   HChar data[BUFFER_SIZE];
} Output;

static Int open_for_writing(const HChar* path)
{
   SysRes res = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0644);
   if (sr_isError(res)) {
      VG_(umsg)("tareador: cannot create %s\n", path);
      return -1;
   }
   return (Int)sr_Res(res);
}

static void flush(Output* out)
{
   Int done = 0;
   while (out->fd >= 0 && done < out->used) {
      Int n = VG_(write)(out->fd, out->data + done, out->used - done);
      if (n <= 0) {
         VG_(umsg)("tareador: write error, the trace is incomplete\n");
         break;
      }
      done += n;
   }
   out->used = 0;
}

static void put(Output* out, const HChar* text)
{
   Int n = VG_(strlen)(text);
   if (out->used + n > BUFFER_SIZE) flush(out);
   if (n > BUFFER_SIZE) { /* a huge line (a big communicator): write it straight through */
      Int done = 0;
      while (out->fd >= 0 && done < n) {
         Int w = VG_(write)(out->fd, text + done, n - done);
         if (w <= 0) break;
         done += w;
      }
      return;
   }
   VG_(memcpy)(out->data + out->used, text, n);
   out->used += n;
}

/* `text` as a TOML basic string. */
static void put_quoted(Output* out, const HChar* text)
{
   HChar one[8];
   put(out, "\"");
   for (; *text; text++) {
      UChar c = (UChar)*text;
      if (c == '"' || c == '\\') VG_(sprintf)(one, "\\%c", c);
      else if (c < 0x20) VG_(sprintf)(one, "\\u%04x", (UInt)c);
      else VG_(sprintf)(one, "%c", c);
      put(out, one);
   }
   put(out, "\"");
}

/* mkdir -p, by running it: the tool API has no mkdir. */
static void make_directory(const HChar* dir)
{
   const HChar* argv[] = {"mkdir", "-p", "--", dir, NULL};
   Int status = 0;
   Int pid = VG_(fork)();
   if (pid == 0) {
      VG_(execv)("/bin/mkdir", argv);
      VG_(exit)(127);
   }
   if (pid < 0 || VG_(waitpid)(pid, &status, 0) != pid || status != 0)
      VG_(umsg)("tareador: cannot create the trace directory %s\n", dir);
}

/* ---- State of this rank ------------------------------------------------------------------ */

typedef struct {
   Int id, size;
   Int* world_ranks;
} Communicator;

static struct {
   Bool open, closed;
   HChar* dir;
   Int rank;
   Output stream;
   ULong bursts, mpi_calls, burst_instructions;
   Communicator* comms;
   Int n_comms, max_comms;
   HChar** opaque;       /* names of the opaque calls met, each once */
   Int n_opaque, max_opaque;
   HChar** warnings;
   Int n_warnings, max_warnings;
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

static HChar* path_in_dir(const HChar* name)
{
   HChar* path = VG_(malloc)("tareador.path", VG_(strlen)(rank_state.dir) + VG_(strlen)(name) + 2);
   VG_(sprintf)(path, "%s/%s", rank_state.dir, name);
   return path;
}

static void write_set_manifest(Int ranks, ULong mips, const HChar* program)
{
   HChar line[128];
   HChar* path = path_in_dir("manifest.toml");
   Output* out = VG_(malloc)("tareador.manifest", sizeof(Output));
   out->fd = open_for_writing(path);
   out->used = 0;
   put(out, "# Tareador trace set: see docs/trace-format.md\nformat = \"tareador-trace-set\"\n");
   VG_(sprintf)(line, "version = %d\nname = ", TR_FORMAT_VERSION);
   put(out, line);
   put_quoted(out, program);
   VG_(sprintf)(line, "\nranks = %d\nmips = %llu.0\nkinds = [\"authentic\"]\n", ranks, mips);
   put(out, line);
   flush(out);
   if (out->fd >= 0) VG_(close)(out->fd);
   VG_(free)(out);
   VG_(free)(path);
}

void tr_trace_open(const HChar* dir, Int rank, Int ranks, ULong mips, const HChar* program)
{
   HChar name[64];
   HChar* path;
   tl_assert(!rank_state.open);
   rank_state.dir = VG_(strdup)("tareador.dir", dir);
   rank_state.rank = rank;
   make_directory(dir);
   if (rank == 0) write_set_manifest(ranks, mips, program);
   VG_(sprintf)(name, "authentic.%d.trc", rank);
   path = path_in_dir(name);
   rank_state.stream.fd = open_for_writing(path);
   VG_(free)(path);
   VG_(sprintf)(name, "# tareador stream v1 kind=authentic rank=%d\n", rank);
   put(&rank_state.stream, name);
   rank_state.open = True;
}

Bool tr_trace_is_open(void) { return rank_state.open && !rank_state.closed; }

/* ---- Records ----------------------------------------------------------------------------- */

static const HChar* mode_name(Int mode)
{
   switch (mode) {
      case TR_MODE_RDV: return "rdv";
      case TR_MODE_SYNC: return "sync";
      case TR_MODE_BUF: return "buf";
      default: return "eager";
   }
}

/* A record waiting behind a receive whose source is not known yet. */
typedef struct {
   Bool is_burst;
   ULong instructions;
   TrEvent event;
} Held;

static Held* held;
static Int n_held, max_held;
static Bool wait_open; /* the last line written is a `wait` that joined waits extend */

static void write_line(const HChar* line)
{
   if (wait_open) put(&rank_state.stream, "\n");
   wait_open = False;
   put(&rank_state.stream, line);
}

/* send/isend/recv/irecv: PEER TAG COMM BYTES [MODE] [REQUEST]. */
static void write_point_to_point(const TrEvent* e)
{
   HChar line[256];
   Bool send = e->kind == TR_EV_SEND;
   VG_(sprintf)(line, "%s%s %d %d %d %lld", e->immediate ? "i" : "", send ? "send" : "recv",
                e->peer, e->tag, e->comm, e->bytes);
   write_line(line);
   if (send) {
      put(&rank_state.stream, " ");
      put(&rank_state.stream, mode_name(e->mode));
   }
   if (e->immediate) {
      VG_(sprintf)(line, " %lld", e->request);
      put(&rank_state.stream, line);
   }
   put(&rank_state.stream, "\n");
}

static void write_event(const TrEvent* e)
{
   HChar line[256];
   switch (e->kind) {
      case TR_EV_SEND:
      case TR_EV_RECV:
         write_point_to_point(e);
         break;
      case TR_EV_WAIT:
         if (e->joined && wait_open) {
            VG_(sprintf)(line, " %lld", e->request);
            put(&rank_state.stream, line);
         } else {
            VG_(sprintf)(line, "wait %lld", e->request);
            write_line(line);
            wait_open = True;
         }
         break;
      case TR_EV_COLL:
         VG_(sprintf)(line, "coll %s %d %d %lld %lld\n", e->name, e->comm, e->root, e->bytes,
                      e->bytes_recv);
         write_line(line);
         break;
      case TR_EV_CALL:
         write_line("call ");
         put(&rank_state.stream, e->name);
         put(&rank_state.stream, "\n");
         break;
      default:
         break;
   }
}

static void write_burst(ULong instructions)
{
   HChar line[64];
   VG_(sprintf)(line, "cpu %llu\n", instructions);
   write_line(line);
}

static Bool unresolved(const Held* h)
{
   return !h->is_burst && h->event.kind == TR_EV_RECV && h->event.peer < 0;
}

/* Writes the held records up to the first receive still unresolved. */
static void release_held(void)
{
   Int i = 0, j;
   while (i < n_held && !unresolved(&held[i])) {
      if (held[i].is_burst) write_burst(held[i].instructions);
      else write_event(&held[i].event);
      i++;
   }
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

/* Names of collectives, which the records keep until written. */
static HChar** collective_names;
static Int n_collective_names, max_collective_names;

void tr_trace_burst(ULong instructions)
{
   if (!tr_trace_is_open() || instructions == 0) return;
   rank_state.bursts++;
   rank_state.burst_instructions += instructions;
   if (n_held > 0) hold(True, instructions, NULL);
   else write_burst(instructions);
}

void tr_trace_event(const TrEvent* event)
{
   TrEvent e = *event;
   Int i;
   if (!tr_trace_is_open()) return;
   /* Names live in client memory: records keep a copy of their own. */
   if (e.kind == TR_EV_CALL)
      e.name = find_or_add(&rank_state.opaque, &rank_state.n_opaque, &rank_state.max_opaque,
                           e.name);
   if (e.kind == TR_EV_COLL)
      e.name = find_or_add(&collective_names, &n_collective_names, &max_collective_names, e.name);
   if (e.kind == TR_EV_RESOLVE) {
      for (i = 0; i < n_held; i++)
         if (unresolved(&held[i]) && held[i].event.request == e.request) {
            held[i].event.peer = e.peer;
            held[i].event.tag = e.tag;
         }
      release_held();
      return;
   }
   if (n_held > 0 || (e.kind == TR_EV_RECV && e.peer < 0)) {
      hold(False, 0, &e);
      release_held();
   } else {
      write_event(&e);
   }
}

void tr_trace_count_mpi_call(void) { rank_state.mpi_calls++; }

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
}

void tr_trace_warning(const HChar* text)
{
   find_or_add(&rank_state.warnings, &rank_state.n_warnings, &rank_state.max_warnings, text);
}

/* ---- End --------------------------------------------------------------------------------- */

static void put_list(Output* out, HChar** items, Int n)
{
   Int i;
   put(out, "[");
   for (i = 0; i < n; i++) {
      if (i) put(out, ", ");
      put_quoted(out, items[i]);
   }
   put(out, "]\n");
}

static void write_rank_manifest(Bool complete, const HChar* reason)
{
   HChar line[160];
   HChar name[64];
   HChar* path;
   Output* out = VG_(malloc)("tareador.manifest", sizeof(Output));
   Int i, j;
   VG_(sprintf)(name, "rank-%d.toml", rank_state.rank);
   path = path_in_dir(name);
   out->fd = open_for_writing(path);
   out->used = 0;
   VG_(sprintf)(line, "rank = %d\nstatus = \"%s\"\nreason = ", rank_state.rank,
                complete ? "complete" : "truncated");
   put(out, line);
   put_quoted(out, complete ? "" : reason);
   VG_(sprintf)(line, "\nthreads = 1\ninstructions = %llu\nbursts = %llu\nmpi_calls = %llu\n",
                rank_state.burst_instructions, rank_state.bursts, rank_state.mpi_calls);
   put(out, line);
   put(out, "opaque_calls = ");
   put_list(out, rank_state.opaque, rank_state.n_opaque);
   put(out, "warnings = ");
   put_list(out, rank_state.warnings, rank_state.n_warnings);
   for (i = 0; i < rank_state.n_comms; i++) {
      Communicator* c = &rank_state.comms[i];
      VG_(sprintf)(line, "\n[[communicator]]\nid = %d\ntasks = [", c->id);
      put(out, line);
      for (j = 0; j < c->size; j++) {
         VG_(sprintf)(line, "%s%d", j ? ", " : "", c->world_ranks[j]);
         put(out, line);
      }
      put(out, "]\n");
   }
   flush(out);
   if (out->fd >= 0) VG_(close)(out->fd);
   VG_(free)(out);
   VG_(free)(path);
}

void tr_trace_close(Bool complete, const HChar* reason)
{
   Int i;
   if (!rank_state.open || rank_state.closed) return;
   rank_state.closed = True;
   /* Receives whose source never became known stay as they are (-1): the validator says so. */
   for (i = 0; i < n_held; i++)
      if (held[i].is_burst) write_burst(held[i].instructions);
      else write_event(&held[i].event);
   n_held = 0;
   if (complete) write_line("end\n");
   else if (wait_open) put(&rank_state.stream, "\n");
   flush(&rank_state.stream);
   if (rank_state.stream.fd >= 0) VG_(close)(rank_state.stream.fd);
   write_rank_manifest(complete, reason);
   VG_(umsg)("tareador: rank %d: %llu bursts, %llu MPI calls, %llu instructions%s%s -> %s/authentic.%d.trc\n",
             rank_state.rank, rank_state.bursts, rank_state.mpi_calls, rank_state.burst_instructions,
             complete ? "" : ", truncated: ", complete ? "" : reason, rank_state.dir,
             rank_state.rank);
}
