/* tr_trace.h — writing this process's part of a trace set (docs/trace-format.md): its stream,
   its rank manifest and, for rank 0, the set's manifest. */
#ifndef TR_TRACE_H
#define TR_TRACE_H

#include "pub_tool_basics.h"

#include "tr_clreq.h"
#include "tr_file.h"
#include "tr_text.h"

/* Creates directory `dir` and its parents if needed; False if it cannot. */
Bool tr_trace_make_directory(const HChar* dir);
/* Removes `dir` if tr_trace_make_directory made it and it is still empty (nothing was traced). */
void tr_trace_unmake_directory(const HChar* dir);
/* Opens the stream of `rank` of `ranks` in `dir` (made already). Returns 0, or the process id
of another live process writing that rank of `dir` (two jobs into one directory): then nothing
is opened. */
Int tr_trace_open(const HChar* dir, Int rank, Int ranks, ULong mips, const HChar* program);
Bool tr_trace_is_open(void);

/* Opens this rank's stream of another kind ("tasks", "overlap-real", ...; the set's manifest
   lists it) into `file`, with its header line; False if it cannot be created. */
Bool tr_trace_open_kind(const HChar* kind, TrFile* file);
/* Creates file `name` in the trace set (False if it cannot). */
Bool tr_trace_create(const HChar* name, TrFile* file);
void tr_trace_tasks_summary(ULong instances, ULong types, ULong dependencies);
/* The instructions of the bursts recorded so far (what the trace holds of the computation). */
ULong tr_trace_burst_instructions(void);
const HChar* tr_trace_dir(void);
Int tr_trace_rank(void);

void tr_trace_burst(ULong instructions);
/* Events of one MPI call, in order. Receives of unknown source hold back what follows them
   until a TR_EV_RESOLVE names the source. */
void tr_trace_event(const TrEvent* event);
/* A copy of the event's name (collective or opaque call) that lives as long as the tool: the
   name the wrappers pass is in client memory. */
const HChar* tr_trace_keep_name(const TrEvent* event);
void tr_trace_communicator(Int id, Int size, const Int* world_ranks);
/* The world ranks of communicator `id`'s members, in its rank order (NULL: unknown). */
const Int* tr_trace_comm_members(Int id, Int* size);
void tr_trace_warning(const HChar* text);
void tr_trace_count_mpi_call(void);
/* An MPI call begins, which may block for good (a deadlock, a peer that died and a launcher
   that kills the rest): what waited long enough goes to disk now, as when a record is added. */
void tr_trace_write_due(void);
/* The rank has long waited in MPI call `call` (NULL: it returned): while the process runs, its
   manifest names the call, which is what a rank killed there without warning leaves. */
void tr_trace_waiting_in(const HChar* call);
/* Tasks mode finds the dependencies of kinds `kinds` (TrDepKind bits): the rank manifest says
   which, since --emit-source can protect the creating code's writes only when war was traced. */
void tr_trace_task_dependencies(UInt kinds);
/* The speculative stream's statistics (tr_speculate.h), for the rank manifest's [speculation]
   and the one-line summary. */
void tr_trace_speculation(ULong chunks, ULong ahead, ULong missed, ULong stalls);

/* Ends the stream: `complete` writes its `end` line; otherwise the manifest says why it stops
   (and so it does when a write failed). Writes the rank manifest and prints the one-line
   summary. Only the first call counts. Until then the rank manifest says "running", and is
   rewritten whenever the names and communicators the stream refers to grow. */
void tr_trace_close(Bool complete, const HChar* reason);

#endif
