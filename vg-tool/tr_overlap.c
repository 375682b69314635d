/* tr_overlap.c — production/consumption tracking and the artificial overlap streams.

   How (docs/tool.md, "Overlap"): every store stamps the 8-byte granules it touches with the
   burst clock (a shadow of last-store times for all memory: no second pass to predict the send
   buffers, at the price of one helper call per access); a completed receive marks the granules
   of its buffer as watched, and the first load (or store) of a watched granule stamps it. At a
   send, the last stores of each chunk within the production interval (since the previous send
   of that buffer) say when the chunk was ready; at the end of a consumption interval (the next
   receive into that buffer, or the end), the first loads say when each chunk was needed. After
   a send its buffer is watched too: the first store into a chunk is where its send must have
   finished.

   The artificial streams are kept as records stamped with the burst clock, in memory, and
   written sorted at the end: a chunk send lands in the past of the send that reveals it. When
   they break collectives into point-to-point transfers, a third stream, `authentic-p2p`, is the
   authentic run with the same transfers in place of its collectives and nothing else changed:
   the baseline that tells the overlap from the change of collective model. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "tr_coll.h"
#include "tr_count.h"
#include "tr_granules.h"
#include "tr_overlap.h"
#include "tr_stream.h"
#include "tracefmt/set_layout.h"
#include "tr_shadow.h"
#include "tr_speculate.h"
#include "tr_text.h"
#include "tr_threads.h"
#include "tr_trace.h"

#define MAX_CHUNKS 64
#define MAX_BINS 64

/* The overlapped streams (an oracle's, ideal patterns', speculative dataflow's: tr_speculate.h),
   then the baseline (written when collectives are decomposed). */
enum { REAL, IDEAL, SPEC, BASE, KINDS };
static const HChar* const kKindName[KINDS] = {"overlap-real", "overlap-ideal",
                                              "overlap-speculative", "authentic-p2p"};

/* An immediate send or receive of the authentic run, until its wait. */
typedef struct {
   long long request;       /* authentic id; 0: free slot */
   Bool receive;
   TrLayout layout;
   Int peer, comm;
   long long tag;
   UInt n;                                /* chunks */
   long long chunk_requests[MAX_CHUNKS];  /* of the artificial streams (0: never waited) */
   UInt items[BASE][MAX_CHUNKS];          /* a receive's chunk records in the overlapped streams */
   UInt commit_items[MAX_CHUNKS];         /* and their commits' in the speculative stream */
   Bool commits;                          /* a message of the program: its chunks have commits */
   UInt base_item;                        /* and its record in the baseline */
} Pending;

/* A received buffer whose data the program has not finished using. */
typedef struct {
   Bool open;
   TrLayout layout;
   Int peer, comm;
   long long tag;
   ULong start;
   UInt n;       /* chunks */
   Bool waited;  /* its chunks were waited for at the call (passed on): only its pattern is due */
   Bool commits;   /* a message of the program: its chunks have commits (speculative stream) */
   ULong message;  /* its number among the messages received (order_waits) */
   ULong call;     /* the broken-up collective call that received it (0: none) */
   long long chunk_requests[MAX_CHUNKS];
} Interval;

/* The last send of a buffer: where its next production interval starts, and the chunk sends
   still to be waited for before the buffer is overwritten. */
typedef struct {
   Addr buffer;
   ULong time;
   TrLayout layout;  /* of the last message, while its sends are unfinished */
   UInt n;         /* its chunks */
   Bool unfinished;
   Bool sent;      /* by the program, to `peer` on `comm`, `bytes`: the speculation's prediction */
   Int peer, comm;
   SizeT bytes;
   long long chunk_requests[MAX_CHUNKS];
} LastSend;

static struct {
   Bool enabled, shift, active, paused;
   Bool decompose;        /* collectives become point-to-point transfers: the baseline is due */
   UInt chunks;           /* at most, per message */
   ULong chunk_min;       /* bytes: no chunk is smaller */
   ThreadId tid;
   ULong base;            /* instruction count when tracing began */
   ULong last_call;       /* the clock at the last MPI call */
   ULong wakes, woken_at; /* the traced thread's futex wakes so far, and its clock at the last */
   ULong in_mpi;          /* instructions spent inside MPI calls since */
   ULong entered;         /* instruction count at the current call's start */
   ULong messages_received;  /* in the authentic run's order of completion */
   ULong calls_broken_up;    /* collective calls broken up so far */
   ULong call;               /* the one being broken up (0: none) */
   long long next_request;
   long long next_base_request;  /* the baseline's collective transfers: beyond the wrappers' */
   ULong message_start[BASE];  /* where the last message sent began, in each overlapped stream */
   TrStream streams[KINDS];
   Pending* pending;
   UInt n_pending;
   Interval* intervals;
   UInt n_intervals;
   LastSend* sends;
   UInt n_sends;
   TrCollAlgorithm collectives;
   struct { Int comm; ULong seq; }* comm_seqs;
   UInt n_comm_seqs;
   /* Non-blocking collectives not yet waited for: the authentic request, and the overlapped
      streams' (kept whole); or, to be broken up at its wait, the call (its blocks copied) and
      its tag, taken at the call. */
   struct { long long authentic, overlapped, tag; TrEvent call; }* colls;
   UInt n_colls, max_colls;
   TrFile patterns;
} ov = {.chunks = 4, .shift = True, .collectives = TR_COLL_BINOMIAL, .patterns = {.fd = -1},
        .next_base_request = 1LL << 62};

void tr_overlap_configure(Bool enabled, UInt chunks, ULong chunk_min, Bool shift,
                          TrCollAlgorithm collectives)
{
   ov.enabled = enabled;
   ov.chunks = chunks < 1 ? 1 : chunks > MAX_CHUNKS ? MAX_CHUNKS : chunks;
   ov.chunk_min = chunk_min;
   ov.shift = shift;
   ov.collectives = collectives;
   ov.decompose = shift && collectives != TR_COLL_KEEP;
}

Bool tr_overlap_enabled(void) { return ov.enabled; }
Bool tr_overlap_active(void) { return ov.active; }

static ULong clock_at(ULong count) { return count - ov.base - ov.in_mpi; }

/* ---- Shadow ------------------------------------------------------------------------------ */

/* The traced thread's clock now (inside an MPI call: when it entered it). */
static ULong traced_clock(void)
{
   return ov.paused ? clock_at(ov.entered) : clock_at(tr_count_thread(ov.tid));
}

/* The program's other threads (an OpenMP team filling a send buffer) compute beside the traced
   thread, but valgrind runs one thread at a time, the one that holds its lock as long as it
   can: the traced thread may run its whole share of a parallel loop before the others run
   theirs, or after. So each other thread has a clock of its own, the traced thread's clock at
   a moment they met plus the instructions it executed since: when it is first seen, and when
   it goes on after waiting (a futex) while the traced thread woke threads up (a parallel
   region begins). */
static struct {
   Bool known, waiting;
   ULong wakes;         /* ov.wakes when it began to wait */
   ULong count, clock;  /* its instruction count, and its clock then */
} other[TR_THREADS_CACHED];

void tr_overlap_slice_starts(ThreadId tid)
{
   if (!ov.active || tid == ov.tid || tid >= TR_THREADS_CACHED) return;
   if (!other[tid].known)  /* (waiting since before tracing began: the last wake woke it) */
      other[tid].clock = ov.wakes ? ov.woken_at : traced_clock();
   else if (other[tid].waiting && other[tid].wakes != ov.wakes) other[tid].clock = ov.woken_at;
   else return;  /* its clock goes on */
   other[tid].known = True;
   other[tid].waiting = False;
   other[tid].count = tr_count_thread(tid);
}

void tr_overlap_syscall(ThreadId tid, UInt syscallno, const UWord* args)
{
   UWord command;
   if (!ov.active || syscallno != __NR_futex || tid >= TR_THREADS_CACHED) return;
   command = args[1] & ~(UWord)(VKI_FUTEX_PRIVATE_FLAG | VKI_FUTEX_CLOCK_REALTIME);
   if (tid == ov.tid) {
      if (command == VKI_FUTEX_WAKE || command == VKI_FUTEX_WAKE_BITSET ||
          command == VKI_FUTEX_CMP_REQUEUE || command == VKI_FUTEX_WAKE_OP) {
         ov.wakes++;
         ov.woken_at = traced_clock();
      }
   } else if (command == VKI_FUTEX_WAIT || command == VKI_FUTEX_WAIT_BITSET) {
      other[tid].waiting = True;
      other[tid].wakes = ov.wakes;
   }
}

/* The traced thread's clock at an access of the running thread, whose instruction count is
   `count`; False for accesses that are not the program's computation (the MPI library's,
   inside its calls). */
static Bool access_clock(ULong count, ULong* clock)
{
   ThreadId tid = VG_(get_running_tid)();
   if (!ov.active) return False;
   if (tid == ov.tid) {
      if (ov.paused) return False;
      *clock = clock_at(count);
      return True;
   }
   if (!tr_threads_computes(tid)) return False;
   *clock = tid < TR_THREADS_CACHED && other[tid].known
               ? other[tid].clock + (count - other[tid].count)
               : traced_clock();
   /* Not before the traced thread's last MPI call: a clock not set again since (a thread that
      went on without waiting) would put a use of what that call received before it. */
   if (*clock < ov.last_call) *clock = ov.last_call;
   return True;
}

VG_REGPARM(3) void tr_overlap_store(Addr a, UWord size, ULong count)
{
   ULong stamp;
   if (!access_clock(count, &stamp)) return;
   stamp++;
   FOR_GRANULES(a, size, True, leaf, g, k, {
      UInt i;
      for (i = g; i < g + k && i < GRANULES; i++) {
         leaf->last_store[i] = stamp;
         if (leaf->first_use[i] == WATCHING) leaf->first_use[i] = stamp;
         if (leaf->first_store[i] == WATCHING) leaf->first_store[i] = stamp;
      }
   });
}

VG_REGPARM(3) void tr_overlap_load(Addr a, UWord size, ULong count)
{
   ULong stamp;
   if (!access_clock(count, &stamp)) return;
   stamp++;
   FOR_GRANULES(a, size, False, leaf, g, k, {
      UInt i;
      for (i = g; i < g + k && i < GRANULES; i++)
         if (leaf->first_use[i] == WATCHING) leaf->first_use[i] = stamp;
   });
}

/* ---- Records of the artificial streams --------------------------------------------------- */

static UInt add_item(UInt kind, ULong time, const TrEvent* event)
{
   return tr_stream_add(&ov.streams[kind], time, event);
}

/* A wait for a chunk of received message number `message` (order_waits). */
static void add_wait(UInt kind, ULong time, const TrEvent* wait, ULong message)
{
   UInt i = add_item(kind, time, wait);
   ov.streams[kind].items[i].message = message;
}

/* The same record in every overlapped stream. */
static void add_both(ULong time, const TrEvent* event)
{
   UInt kind;
   for (kind = 0; kind < BASE; kind++) add_item(kind, time, event);
}

/* Whether chunk `k` of `n` has a commit in the speculative stream: the last one leaves with the
   call, final (tr_spec_chunk), so it needs none; sender and receiver both know n. */
static Bool has_commit(UInt k, UInt n) { return k + 1 < n; }

/* The commit of a chunk transfer of the program in the speculative stream (when chunks move:
   tr_speculate.h); its index there. */
static UInt add_commit(ULong time, const TrEvent* chunk, Bool correction)
{
   TrEvent c = tr_spec_commit(chunk, correction);
   return ov.shift ? add_item(SPEC, time, &c) : 0;
}

/* A record of the baseline, if there is one (its index there, else 0). */
static UInt add_base(ULong time, const TrEvent* event)
{
   return ov.decompose ? add_item(BASE, time, event) : 0;
}

/* How many chunks a message of `bytes` goes in: --chunks, but none smaller than --chunk-min (a
   smaller message goes whole), and an empty message in one. Sender and receiver agree: both
   know the size of the message (a receive's, once it has completed). */
static UInt chunks_of(SizeT bytes)
{
   ULong n = ov.chunk_min > 0 ? bytes / ov.chunk_min : ov.chunks;
   return n < 1 ? 1 : n > ov.chunks ? ov.chunks : (UInt)n;
}

/* Chunk `k` of `n` of a message of `bytes`: its first byte and its size. */
static SizeT chunk_start(SizeT bytes, UInt k, UInt n) { return (SizeT)((ULong)bytes * k / n); }
static SizeT chunk_size(SizeT bytes, UInt k, UInt n)
{
   return chunk_start(bytes, k + 1, n) - chunk_start(bytes, k, n);
}

/* Chunks match on tags of their own, in two spaces that never meet: a message's chunk k has
   tag x C + k (C = --chunks), so the chunks of different tags never match each other, for any
   tag up to MPI_TAG_UB (chunk tags stay below 2^37); a collective's transfers have negative
   tags (no MPI tag is negative), -(its number + 1) x C - k. */
static long long chunk_tag(long long tag, UInt k)
{
   return tag >= 0 ? tag * ov.chunks + k : tag * ov.chunks - k;
}

static TrEvent chunk_event(const TrEvent* e, UInt k, UInt n, long long request, Bool immediate)
{
   TrEvent c = *e;
   c.bytes = (long long)chunk_size((SizeT)e->bytes, k, n);
   c.tag = chunk_tag(e->tag, k);
   c.request = request;
   c.immediate = immediate;
   c.lines = 0;  /* a chunk's own lines are not counted: the replayer takes it as contiguous */
   return c;
}

static TrEvent wait_event(long long request, Bool joined)
{
   TrEvent w;
   VG_(memset)(&w, 0, sizeof w);
   w.kind = TR_EV_WAIT;
   w.request = request;
   w.joined = joined;
   return w;
}

/* ---- Patterns ---------------------------------------------------------------------------- */

/* One `send` or `recv` line: for each part of the buffer, `at(part)` (clock + 1, 0: none) as a
   fraction of [start, end]. */
static void pattern_line(const HChar* what, Int peer, long long tag, Int comm, const TrLayout* l,
                         ULong start, ULong end, Bool sending)
{
   SizeT bytes = l->bytes;
   UInt parts = bytes / 8 < MAX_BINS ? (UInt)(bytes / 8) : MAX_BINS, i;
   ULong span = end - start;
   if (parts == 0) parts = 1;
   tr_text_printf(&ov.patterns.text, "%s %d %lld %d %lu %llu", what, peer, tag, comm, bytes, span);
   for (i = 0; i < parts; i++) {
      SizeT from = (SizeT)((ULong)bytes * i / parts), to = (SizeT)((ULong)bytes * (i + 1) / parts);
      ULong t = sending ? tr_over(l, from, to, tr_last_store, start) : tr_over(l, from, to, tr_first_use, 0);
      if (t == 0 || to == from) {
         tr_text_append(&ov.patterns.text, " -");
      } else {
         ULong micro = span == 0 ? 1000000 : ((t - 1 - start) * 1000000 + span / 2) / span;
         tr_text_printf(&ov.patterns.text, " %llu.%06llu", micro / 1000000, micro % 1000000);
      }
   }
   tr_text_append(&ov.patterns.text, "\n");
   tr_file_write_due(&ov.patterns);
}

/* ---- Sends ------------------------------------------------------------------------------- */

/* The last send of `buffer` (made, as if at the start, if there was none and `make`). */
static LastSend* last_send_of(Addr buffer, Bool make)
{
   UInt i;
   for (i = 0; i < ov.n_sends && ov.sends[i].buffer != buffer; i++) {}
   if (i == ov.n_sends) {
      if (!make) return NULL;
      ov.sends = VG_(realloc)("tareador.overlap.sends", ov.sends, (ov.n_sends + 1) * sizeof(LastSend));
      VG_(memset)(&ov.sends[i], 0, sizeof(LastSend));
      ov.sends[ov.n_sends++].buffer = buffer;
   }
   return &ov.sends[i];
}

/* The chunks of the last send of a buffer are waited for where each is first overwritten
   (real; at `now` if it was not yet) or at k/N of the next production interval (ideal), which
   ends at `now`: the double buffering of receives has no counterpart on the send side. */
static void finish_sends(LastSend* last, ULong now)
{
   UInt k;
   if (!last->unfinished) return;
   for (k = 0; k < last->n; k++) {
      SizeT from = chunk_start(last->layout.bytes, k, last->n);
      SizeT to = from + chunk_size(last->layout.bytes, k, last->n);
      ULong stored = tr_over(&last->layout, from, to, tr_first_store, 0);
      ULong overwritten = stored && stored - 1 < now ? stored - 1 : now;
      TrEvent w = wait_event(last->chunk_requests[k], False);
      TrEvent commit = wait_event(tr_spec_commit_request(w.request), False);
      add_item(REAL, overwritten, &w);
      add_item(IDEAL, last->time + (now - last->time) * k / last->n, &w);
      add_item(SPEC, overwritten, &w);
      if (has_commit(k, last->n)) add_item(SPEC, overwritten, &commit);
      if (overwritten < now) tr_spec_stall();
   }
   last->unfinished = False;
   tr_layout_free(&last->layout);
}

static ULong production_start(Addr buffer, ULong now)
{
   LastSend* last = last_send_of(buffer, True);
   ULong start = last->time;
   last->time = now;
   last->sent = False;  /* a collective from the buffer: the next send is not predicted */
   return start;
}

static Pending* new_pending(const TrEvent* e, Bool receive)
{
   UInt i;
   for (i = 0; i < ov.n_pending && ov.pending[i].request != 0; i++) {}
   if (i == ov.n_pending)
      ov.pending = VG_(realloc)("tareador.overlap.pending", ov.pending, ++ov.n_pending * sizeof(Pending));
   VG_(memset)(&ov.pending[i], 0, sizeof(Pending));
   ov.pending[i].request = e->request;
   ov.pending[i].receive = receive;
   ov.pending[i].layout = tr_layout_of(e, (Addr)(receive ? e->buffer_recv : e->buffer));
   ov.pending[i].n = chunks_of((SizeT)e->bytes);
   ov.pending[i].peer = e->peer;
   ov.pending[i].tag = e->tag;
   ov.pending[i].comm = e->comm;
   return &ov.pending[i];
}

/* Messages start in program order: no chunk leaves before the first chunk of the message sent
   before it. A send costs its latency on the sender's CPU, so one moved ahead of an earlier
   send would delay that one (and whoever waits for it): kept in order, with one chunk per
   message, the overlapped run never takes longer than its baseline. The chunks of one message
   may leave in any order, and so may those of messages of the program; but the transfers of a
   collective leave one after the other, in the order of its algorithm (send_chunks' `whole`):
   its schedule is what keeps them from contending for the links (in round i of a pairwise
   exchange, every member sends to the one i places on), and chunks of a later round sent
   among those of an earlier one hold a link that another member's earlier round is waiting
   for (NAS FT's transposes, in chunks, ran 0.7x at 10 MB/s). Returns when a chunk ready at `t`
   leaves in stream `kind`. */
static ULong in_order(UInt kind, ULong t)
{
   return t > ov.message_start[kind] ? t : ov.message_start[kind];
}

/* A message sent at the call: the next ones start after it. */
static void sent_at_call(ULong now)
{
   UInt kind;
   for (kind = 0; kind < BASE; kind++) ov.message_start[kind] = now;
}

/* Each chunk is sent where its final version was produced (real), at (k+1)/N of the
   production interval, which began at `start` (ideal), or where speculation sends it
   (tr_speculate.h: a collective's transfers, `whole`, at the call), in order (in_order);
   without shifting, where the call was, as the call was. Returns how many chunks. */
static UInt send_chunks(const TrEvent* e, const TrLayout* l, ULong start, ULong now,
                        long long* requests, Bool whole, Bool predicted)
{
   SizeT bytes = l->bytes;
   Pending* p = e->immediate && !ov.shift ? new_pending(e, False) : NULL;
   UInt k, kind, n = chunks_of(bytes);
   ULong first[BASE] = {now, now, now}, last[BASE] = {0, 0, 0};
   pattern_line("send", e->peer, e->tag, e->comm, l, start, now, True);
   if (ov.shift) tr_over(l, 0, bytes, tr_use_at, now);
   for (k = 0; k < n; k++) {
      TrEvent c;
      if (!ov.shift || bytes == 0) {  /* an empty message synchronises: it stays at the call */
         long long request = p ? ++ov.next_request : 0;
         if (p) p->chunk_requests[k] = request;
         c = chunk_event(e, k, n, request, e->immediate);
         add_both(now, &c);
         if (!whole && has_commit(k, n)) add_commit(now, &c, False);
      } else {
         /* produced at its last store in the interval (at its start if none), but received
            data leaves no earlier than it was first used (an older use is of data since
            overwritten, before the interval) */
         SizeT from = chunk_start(bytes, k, n), to = from + chunk_size(bytes, k, n);
         ULong stored = tr_over(l, from, to, tr_last_store, start);
         ULong used = tr_over(l, from, to, tr_last_first_use, 0);
         ULong ready = stored ? stored - 1 : start, commit = now;
         ULong at[BASE];
         Bool correction = False;
         if (used > 0 && used - 1 > ready) ready = used - 1;
         at[REAL] = in_order(REAL, ready);
         at[IDEAL] = in_order(IDEAL, start + (now - start) * (k + 1) / n);
         at[SPEC] = in_order(SPEC, whole ? now : tr_spec_chunk(l, from, to, start, now, predicted,
                                                               used ? used - 1 : 0, &commit,
                                                               &correction));
         c = chunk_event(e, k, n, requests ? (requests[k] = ++ov.next_request) : 0, True);
         for (kind = 0; kind < BASE; kind++) {
            add_item(kind, at[kind], &c);
            if (at[kind] < first[kind]) first[kind] = at[kind];
            if (at[kind] > last[kind]) last[kind] = at[kind];
         }
         if (!whole && has_commit(k, n))
            add_commit(commit > at[SPEC] ? commit : at[SPEC], &c, correction);
      }
   }
   for (kind = 0; kind < BASE; kind++)
      ov.message_start[kind] = whole && last[kind] > 0 ? last[kind] : first[kind];
   return n;
}

/* A message of the program: its chunks are waited for before the buffer is overwritten.
   Speculation predicts that the next send of the buffer repeats this one. */
static void send(const TrEvent* e, ULong now)
{
   LastSend* last = last_send_of((Addr)e->buffer, True);
   ULong start = last->time;
   TrLayout l = tr_layout_of(e, (Addr)e->buffer);
   Bool predicted = last->sent && last->peer == e->peer && last->comm == e->comm &&
                    last->bytes == l.bytes;
   last->sent = True;
   last->peer = e->peer;
   last->comm = e->comm;
   last->bytes = l.bytes;
   if (!ov.shift) {
      send_chunks(e, &l, start, now, NULL, False, False);
      tr_layout_free(&l);
   } else {
      finish_sends(last, now);
      last->n = send_chunks(e, &l, start, now, last->chunk_requests, False, predicted);
      last->layout = l;
      last->unfinished = l.bytes > 0;  /* an empty message's chunks stay at the call, unwaited */
      if (last->unfinished) tr_over(&l, 0, l.bytes, tr_watch_stores, 0);
      else tr_layout_free(&last->layout);
   }
   last->time = now;
}

/* ---- Receives ---------------------------------------------------------------------------- */

/* The consumption interval of `iv` ends at `now`: each chunk is waited for where it was first
   used (real; at the end if it never was) or at k/N of the interval (ideal). */
static void close_interval(Interval* iv, ULong now)
{
   UInt k;
   iv->open = False;
   pattern_line("recv", iv->peer, iv->tag, iv->comm, &iv->layout, iv->start, now, False);
   if (ov.shift && !iv->waited)
      for (k = 0; k < iv->n; k++) {
         SizeT from = chunk_start(iv->layout.bytes, k, iv->n);
         SizeT to = from + chunk_size(iv->layout.bytes, k, iv->n);
         ULong used = tr_over(&iv->layout, from, to, tr_first_use, 0);
         TrEvent w = wait_event(iv->chunk_requests[k], False);
         TrEvent commit = wait_event(tr_spec_commit_request(w.request), False);
         add_wait(REAL, used ? used - 1 : now, &w, iv->message);
         add_wait(IDEAL, iv->start + (now - iv->start) * k / iv->n, &w, iv->message);
         add_wait(SPEC, used ? used - 1 : now, &w, iv->message);
         if (iv->commits && has_commit(k, iv->n))
            add_wait(SPEC, used ? used - 1 : now, &commit, iv->message);
      }
   tr_over(&iv->layout, 0, iv->layout.bytes, tr_watch, False);
   tr_layout_free(&iv->layout);
}

/* A receive into `buffer` is posted: what was sent from there must have left, and the data of
   the previous receive into it is no longer used. Not the data of another block of the same
   collective call: MPI forbids them to overlap, so one that starts where another does is empty
   (an MPI_Alltoallv's count of 0, displacements summed from the counts). */
static void receiving_into(Addr buffer, ULong now)
{
   UInt i;
   LastSend* last = last_send_of(buffer, False);
   if (last) finish_sends(last, now);
   for (i = 0; i < ov.n_intervals; i++)
      if (ov.intervals[i].open && ov.intervals[i].layout.base == buffer &&
          (ov.call == 0 || ov.intervals[i].call != ov.call))
         close_interval(&ov.intervals[i], now);
}

/* The interval of a message received into `layout` (which the interval takes over) in `n`
   chunks, waited for through `requests` (NULL: at the call already); `commits`: a message of
   the program, whose chunks have commits in the speculative stream. */
static void start_interval(TrLayout layout, Int peer, long long tag, Int comm, UInt n,
                           const long long* requests, Bool commits, ULong now)
{
   UInt i;
   Interval* iv;
   for (i = 0; i < ov.n_intervals && ov.intervals[i].open; i++) {}
   if (i == ov.n_intervals)
      ov.intervals = VG_(realloc)("tareador.overlap.intervals", ov.intervals,
                                  ++ov.n_intervals * sizeof(Interval));
   iv = &ov.intervals[i];
   iv->open = True;
   iv->layout = layout;
   iv->peer = peer;
   iv->tag = tag;
   iv->comm = comm;
   iv->start = now;
   iv->n = n;
   iv->waited = requests == NULL;
   iv->commits = commits;
   iv->message = ++ov.messages_received;
   iv->call = ov.call;
   if (requests) VG_(memcpy)(iv->chunk_requests, requests, sizeof iv->chunk_requests);
   tr_over(&iv->layout, 0, iv->layout.bytes, tr_watch, True);
}

/* Each chunk is received by its own immediate receive, posted where the call was (blocking
   ones too, unless chunks stay in place), with its commit in the speculative stream when the
   message is the program's (`commits`). Returns the pending receive of an immediate one. */
static Pending* post_receive(const TrEvent* e, Bool commits, ULong now)
{
   Addr buffer = (Addr)e->buffer_recv;
   long long requests[MAX_CHUNKS];
   Pending* p = e->immediate ? new_pending(e, True) : NULL;
   Bool blocking = !e->immediate && !ov.shift;
   UInt k, kind, n = chunks_of((SizeT)e->bytes);
   receiving_into(buffer, now);
   for (k = 0; k < n; k++) {
      TrEvent c;
      requests[k] = blocking ? 0 : ++ov.next_request;
      c = chunk_event(e, k, n, requests[k], !blocking);
      for (kind = 0; kind < BASE; kind++) {
         UInt item = add_item(kind, now, &c);
         if (p) p->items[kind][k] = item;
      }
      if (commits && has_commit(k, n)) {
         UInt item = add_commit(now, &c, True);
         if (p) p->commit_items[k] = item;
      }
      if (p) p->chunk_requests[k] = requests[k];
   }
   if (p) p->commits = commits && ov.shift;
   if (!e->immediate)
      start_interval(tr_layout_of(e, buffer), e->peer, e->tag, e->comm, n, requests,
                     commits && ov.shift, now);
   return p;
}

/* A receive from an unknown source was cancelled: it never happened, and its records go. */
static void cancel(Pending* p)
{
   UInt k, kind;
   for (kind = 0; kind < BASE; kind++)
      for (k = 0; k < p->n; k++) {
         ov.streams[kind].items[p->items[kind][k]].dropped = True;
         if (kind == SPEC && p->commits && has_commit(k, p->n))
            ov.streams[SPEC].items[p->commit_items[k]].dropped = True;
      }
   if (ov.decompose) ov.streams[BASE].items[p->base_item].dropped = True;
   tr_layout_free(&p->layout);
   p->request = 0;
}

/* An immediate receive completed: its source and tag (if they were wildcards) and its size
   (when the message was shorter than the room given) are known, and its records learn them; a
   shorter message may need fewer chunks, whose records are dropped. */
static void resolve(const TrEvent* e)
{
   UInt i, k, kind;
   for (i = 0; i < ov.n_pending; i++) {
      Pending* p = &ov.pending[i];
      UInt n = p->n;
      if (p->request != e->request || !p->receive) continue;
      if (e->peer == TR_PEER_CANCELLED) {
         cancel(p);
         continue;
      }
      p->peer = e->peer;
      p->tag = e->tag;
      if (e->bytes >= 0 && (SizeT)e->bytes < p->layout.bytes) {
         p->layout.bytes = (SizeT)e->bytes;
         p->n = chunks_of(p->layout.bytes);
      }
      for (kind = 0; kind < BASE; kind++)
         for (k = 0; k < n; k++) {
            TrItem* item = &ov.streams[kind].items[p->items[kind][k]];
            item->event.peer = e->peer;
            item->event.tag = chunk_tag(e->tag, k);
            item->event.bytes = (long long)chunk_size(p->layout.bytes, k, p->n);
            item->dropped = k >= p->n;
            if (kind == SPEC && p->commits && has_commit(k, n)) {
               TrItem* commit = &ov.streams[SPEC].items[p->commit_items[k]];
               commit->event.peer = e->peer;
               commit->event.tag = item->event.tag;
               commit->event.bytes = item->event.bytes;
               commit->dropped = item->dropped || !has_commit(k, p->n);
            }
         }
      if (ov.decompose) {
         ov.streams[BASE].items[p->base_item].event.peer = e->peer;
         ov.streams[BASE].items[p->base_item].event.tag = e->tag;
      }
   }
}

/* A wait of the authentic run: a receive's data is there (its interval starts); without
   shifting, the chunks' own waits take its place. */
static void complete(const TrEvent* e, ULong now, Bool* joined)
{
   UInt i, k;
   Pending* p;
   for (i = 0; i < ov.n_pending && ov.pending[i].request != e->request; i++) {}
   if (i == ov.n_pending || e->request == 0) return;  /* a send's, when chunks are not waited */
   p = &ov.pending[i];
   if (!ov.shift)
      for (k = 0; k < p->n; k++) {
         TrEvent w = wait_event(p->chunk_requests[k], *joined);
         add_both(now, &w);
         *joined = True;
      }
   if (p->receive)
      start_interval(p->layout, p->peer, p->tag, p->comm, p->n, p->chunk_requests, p->commits, now);
   else
      tr_layout_free(&p->layout);
   p->request = 0;
}

/* ---- Collectives ------------------------------------------------------------------------- */

/* The collectives of communicator `comm` so far: their transfers get tags of their own, -1 for
   the first, -2 for the next, ... (chunk_tag: apart from every MPI tag). */
static long long collective_tag(Int comm)
{
   UInt i;
   for (i = 0; i < ov.n_comm_seqs && ov.comm_seqs[i].comm != comm; i++) {}
   if (i == ov.n_comm_seqs) {
      ov.comm_seqs = VG_(realloc)("tareador.overlap.colls", ov.comm_seqs,
                                  ++ov.n_comm_seqs * sizeof(*ov.comm_seqs));
      ov.comm_seqs[i].comm = comm;
      ov.comm_seqs[i].seq = 0;
   }
   return -1 - (long long)ov.comm_seqs[i].seq++;
}

static Int member_index(const Int* members, Int size, Int world_rank)
{
   Int i;
   for (i = 0; i < size && members[i] != world_rank; i++) {}
   return i < size ? i : 0;
}

/* The result of a collective is written at the call, whatever reached the rank before it. */
static void written_by_collective(const TrEvent* e, ULong now)
{
   TrLayout result = tr_layout_contiguous((Addr)e->buffer_recv, (SizeT)e->bytes_recv);
   if (e->buffer_recv) tr_over(&result, 0, result.bytes, tr_stored_at, now);
}

/* The transfer of one step in the overlapped streams: the rank's own data is sent where it was
   produced and what it keeps is waited for where it is used; what it passes on or combines is
   received and sent on at the call (and the part of it that is its result gets a pattern). */
static void overlap_step(const TrCollStep* step, const TrEvent* t, ULong start, ULong now)
{
   UInt k, kind, n = chunks_of((SizeT)t->bytes);
   if (step->send && step->own) {
      TrLayout own = tr_layout_contiguous((Addr)t->buffer, (SizeT)t->bytes);
      send_chunks(t, &own, start, now, NULL, True, False);
   } else if (step->send) {
      for (k = 0; k < n; k++) {
         TrEvent c = chunk_event(t, k, n, 0, True);
         add_both(now, &c);
      }
      sent_at_call(now);
   } else if (step->own) {
      TrEvent r = *t;
      r.immediate = 0;  /* its data is there when the call returns: the interval starts */
      post_receive(&r, False, now);
   } else {
      ULong message = ++ov.messages_received;
      for (k = 0; k < n; k++) {
         TrEvent c = chunk_event(t, k, n, ++ov.next_request, True), w = wait_event(c.request, False);
         for (kind = 0; kind < BASE; kind++) {
            add_item(kind, now, &c);
            add_wait(kind, now, &w, message);
         }
      }
      if (step->kept > 0) {
         receiving_into((Addr)t->buffer_recv, now);
         start_interval(tr_layout_contiguous((Addr)t->buffer_recv, (SizeT)step->kept), t->peer, t->tag,
                        t->comm, 1, NULL, False, now);
      }
   }
}

/* The same transfer in the baseline, whole and where the call was: a receive of data the rank
   only keeps is waited for at the end of the call (`*kept`: its request), one it passes on
   or combines at once, as in the overlapped streams. */
static void baseline_step(const TrCollStep* step, const TrEvent* t, ULong now, long long* kept)
{
   TrEvent b = *t;
   *kept = 0;
   if (!step->send) {
      b.request = ++ov.next_base_request;
      if (step->own) *kept = b.request;
   }
   add_base(now, &b);
   if (!step->send && !step->own) {
      TrEvent w = wait_event(b.request, False);
      add_base(now, &w);
   }
}

/* A collective as its point-to-point transfers (tr_coll.c), in the overlapped streams and in
   the baseline, with tag `tag`. */
static void break_up(const TrEvent* e, long long tag, ULong now)
{
   Int size, me, n, i;
   const Int* members = tr_trace_comm_members(e->comm, &size);
   TrCollStep* steps;
   ULong start;
   long long* kept;
   me = member_index(members, size, tr_trace_rank());
   steps = VG_(malloc)("tareador.overlap.steps", tr_coll_max_steps(size) * sizeof(TrCollStep));
   n = tr_coll_steps(ov.collectives, e->name, me, size,
                     e->root >= 0 ? member_index(members, size, e->root) : 0, (ULong)e->bytes,
                     (ULong)e->bytes_recv, e->blocks, steps, tr_coll_max_steps(size));
   start = production_start((Addr)e->buffer, now);
   kept = VG_(malloc)("tareador.overlap.kept", tr_coll_max_steps(size) * sizeof(long long));
   ov.call = ++ov.calls_broken_up;
   for (i = 0; i < n; i++) {
      TrEvent t;
      VG_(memset)(&t, 0, sizeof t);
      t.kind = steps[i].send ? TR_EV_SEND : TR_EV_RECV;
      t.immediate = 1;
      t.mode = TR_MODE_EAGER;
      t.peer = members[steps[i].peer];
      t.tag = tag;
      t.comm = e->comm;
      t.bytes = (long long)steps[i].bytes;
      t.buffer = (const HChar*)e->buffer + steps[i].offset;
      t.buffer_recv = (const HChar*)e->buffer_recv + steps[i].offset;
      overlap_step(&steps[i], &t, start, now);
      baseline_step(&steps[i], &t, now, &kept[i]);
   }
   ov.call = 0;
   for (i = 0; i < n; i++)
      if (kept[i]) {
         TrEvent w = wait_event(kept[i], False);
         add_base(now, &w);
      }
   VG_(free)(kept);
   VG_(free)(steps);
   written_by_collective(e, now);
}

/* A collective call: kept whole, or broken up; a non-blocking one is broken up at its wait,
   where the program has done what its progress may need (a message another member sends
   before its own call), with the tag of its call. */
static void collective(const TrEvent* e, ULong now)
{
   Int size;
   Bool whole = !ov.decompose || tr_trace_comm_members(e->comm, &size) == NULL || size < 2;
   if (!e->immediate) {
      if (!whole) {
         break_up(e, collective_tag(e->comm), now);
         return;
      }
      add_both(now, e);
      add_base(now, e);
      written_by_collective(e, now);
      return;
   }
   if (ov.n_colls == ov.max_colls) {
      ov.max_colls = ov.max_colls ? 2 * ov.max_colls : 16;
      ov.colls = VG_(realloc)("tareador.overlap.colls", ov.colls, ov.max_colls * sizeof(*ov.colls));
   }
   ov.colls[ov.n_colls].authentic = e->request;
   ov.colls[ov.n_colls].overlapped = whole ? ++ov.next_request : 0;
   ov.colls[ov.n_colls].tag = whole ? 0 : collective_tag(e->comm);
   ov.colls[ov.n_colls].call = *e;
   if (!whole && e->blocks) {  /* valid during this request only */
      SizeT bytes = (SizeT)e->blocks_n * sizeof(TrSegment);
      TrSegment* blocks = VG_(malloc)("tareador.overlap.blocks", bytes);
      VG_(memcpy)(blocks, e->blocks, bytes);
      ov.colls[ov.n_colls].call.blocks = blocks;
   }
   if (whole) {
      TrEvent o = *e;
      o.request = ov.colls[ov.n_colls].overlapped;
      add_both(now, &o);
      add_base(now, e);
   }
   ov.n_colls++;
}

/* A wait for a non-blocking collective: a wait in every stream for one kept whole; one broken up
   is broken up here. */
static void collective_wait(const TrEvent* e, ULong now, Bool* joined)
{
   UInt i;
   TrEvent w = *e;
   for (i = 0; i < ov.n_colls && ov.colls[i].authentic != e->request; i++) {}
   if (i == ov.n_colls) return;  /* started before tracing */
   if (ov.colls[i].overlapped == 0) {
      break_up(&ov.colls[i].call, ov.colls[i].tag, now);
      if (ov.colls[i].call.blocks) VG_(free)((void*)ov.colls[i].call.blocks);
      ov.colls[i] = ov.colls[--ov.n_colls];
      return;
   }
   w.request = ov.colls[i].overlapped;
   written_by_collective(&ov.colls[i].call, now);
   ov.colls[i] = ov.colls[--ov.n_colls];
   add_base(now, e);
   w.joined = *joined;
   add_both(now, &w);
   *joined = True;
}

/* ---- MPI calls --------------------------------------------------------------------------- */

void tr_overlap_mpi_enter(ULong count)
{
   if (!ov.active) return;
   ov.entered = count;
   ov.paused = True;
   ov.last_call = clock_at(count);
   tr_over_cap = ov.last_call + 1;
}

void tr_overlap_mpi_exit(const TrEvent* events, Int n, ULong count)
{
   ULong now;
   Bool joined = False;
   Int i;
   if (!ov.active) return;
   now = clock_at(ov.entered);
   for (i = 0; i < n; i++) {
      TrEvent e = events[i];
      e.name = tr_trace_keep_name(&events[i]);
      switch (e.kind) {
         case TR_EV_SEND: send(&e, now); break;
         case TR_EV_RECV: {
            Pending* p = post_receive(&e, True, now);
            UInt item = add_base(now, &e);
            if (p) p->base_item = item;
            continue;
         }
         case TR_EV_WAIT:
            if (e.collective) {
               collective_wait(&e, now, &joined);
               continue;
            }
            complete(&e, now, &joined);
            break;
         case TR_EV_RESOLVE: resolve(&e); continue;
         case TR_EV_COLL: collective(&e, now); continue;
         default: add_both(now, &e); break;  /* opaque calls, as they were */
      }
      add_base(now, &e);  /* the authentic record, as it was */
   }
   ov.in_mpi += count - ov.entered;
   ov.paused = False;
}

/* ---- Start and end ----------------------------------------------------------------------- */

void tr_overlap_begin(ThreadId tid, ULong count)
{
   HChar name[64];
   UInt kind;
   if (!ov.enabled || ov.active) return;
   ov.active = True;
   ov.tid = tid;
   ov.base = count;
   for (kind = 0; kind < KINDS; kind++)
      if (kind != BASE || ov.decompose) tr_trace_open_kind(kKindName[kind], &ov.streams[kind].out);
   VG_(sprintf)(name, TR_SET_PATTERNS, tr_trace_rank());
   tr_trace_create(name, &ov.patterns);
   tr_text_printf(&ov.patterns.text, "# tareador patterns v1 rank=%d chunks=%u\n", tr_trace_rank(),
                  ov.chunks);
}

void tr_overlap_finish(Bool complete, ULong count)
{
   ULong end;
   UInt i, kind;
   if (!ov.active) return;
   end = ov.paused ? clock_at(ov.entered) : clock_at(count);
   tr_over_cap = end + 1;
   /* A receive from an unknown source that never completed matched no message: it never
      happened (as the authentic stream leaves it out). */
   for (i = 0; i < ov.n_pending; i++)
      if (ov.pending[i].request != 0 && ov.pending[i].receive && ov.pending[i].peer < 0)
         cancel(&ov.pending[i]);
   for (i = 0; i < ov.n_intervals; i++)
      if (ov.intervals[i].open) close_interval(&ov.intervals[i], end);
   for (i = 0; i < ov.n_sends; i++) finish_sends(&ov.sends[i], end);
   if (ov.shift) {
      ULong chunks, ahead, missed, stalls;
      for (kind = 0; kind < BASE; kind++) tr_stream_order_waits(&ov.streams[kind]);
      tr_spec_statistics(&chunks, &ahead, &missed, &stalls);
      tr_trace_speculation(chunks, ahead, missed, stalls);
   }
   for (kind = 0; kind < KINDS; kind++)
      if (kind != BASE || ov.decompose) tr_stream_write(&ov.streams[kind], end, complete);
   tr_file_close(&ov.patterns);
   ov.active = False;
}
