/* tr_comm.c — producer->consumer communication graphs (--comm=KIND).

   A shadow memory (tr_shadow.h) holds, per byte, the node (function, line, thread, task type or
   instance) whose store wrote it last. A load by node C of bytes written by P is communication
   P -> C: its bytes, and one event per producer met in the load. Exactly (--sample=off), every
   load updates the edge table. Sampled, Algorithm L (tr_reservoir.h) picks a uniform sample of
   the loads, only those are looked up, and at the end each edge is the sample's count scaled by
   loads / samples, with its relative error at the chosen confidence. Stores are always
   recorded: a sampled load must find its true producer. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"

#include "tracefmt/set_layout.h"
#include "tr_comm.h"
#include "tr_file.h"
#include "tr_reservoir.h"
#include "tr_shadow.h"
#include "tr_tasks.h"
#include "tr_threads.h"
#include "tr_trace.h"

typedef enum { G_NONE, G_FUNCTION, G_LINE, G_THREAD, G_TASK_TYPE, G_TASK } Granularity;
static const HChar* const kGranularities[] = {"none", "function", "line", "thread", "task-type",
                                              "task", NULL};

static struct {
   Long granularity;
   Bool sample;
   double z, r, fe;
   Long size;  /* the reservoir's, when given; else from z, r and fe */
   Long seed;
} clo = {G_NONE, True, 1.959964, 0.05, 0.001, 0, 1};  /* z: 95% two-sided */

Bool tr_comm_option(const HChar* arg)
{
   const HChar* value;
   if VG_STRINDEX_CLO (arg, "--comm", kGranularities, clo.granularity) {
   } else if VG_STR_CLO (arg, "--sample", value) {
      if (VG_(strcmp)(value, "yes") == 0 || VG_(strcmp)(value, "on") == 0) clo.sample = True;
      else if (VG_(strcmp)(value, "no") == 0 || VG_(strcmp)(value, "off") == 0) clo.sample = False;
      else VG_(fmsg_bad_option)(arg, "expected yes (on) or no (off)\n");
   } else if VG_DBL_CLO (arg, "--sample-z", clo.z) {
   } else if VG_DBL_CLO (arg, "--sample-error", clo.r) {
   } else if VG_DBL_CLO (arg, "--sample-fraction", clo.fe) {
   } else if VG_BINT_CLO (arg, "--sample-size", clo.size, 2, 1LL << 32) {
   } else if VG_BINT_CLO (arg, "--sample-seed", clo.seed, 0, 1LL << 62) {
   } else {
      return False;
   }
   return True;
}

void tr_comm_print_usage(void)
{
   VG_(printf)(
      "    --comm=none|function|line|thread|task-type|task  record producer->consumer\n"
      "                             communication at this granularity into comm.N.txt [none]\n"
      "    --sample=yes|no          a reservoir sample of the loads instead of all (no, off:\n"
      "                             every load, the exact graph) [yes]\n"
      "    --sample-z=Z --sample-error=R --sample-fraction=FE  the sample size: 1 + Z^2 (1-FE)\n"
      "                             / (R^2 FE), an error R at confidence Z on edges carrying\n"
      "                             a fraction FE of the loads [1.959964 (95%%), 0.05, 0.001:\n"
      "                             1535048 loads]\n"
      "    --sample-size=N          that many loads instead\n"
      "    --sample-seed=N          the sampling's random seed [1]\n");
}

/* ---- Nodes: labels interned once, numbered from 1 --------------------------------------------- */

static struct {
   HChar** labels;  /* [id], id 0 unused: no producer */
   UInt n, max;
   UInt* slots;     /* open addressing: ids by label hash */
   UInt n_slots;
} nodes = {.n = 1};

static UInt hash_string(const HChar* s)
{
   UInt h = 2166136261u;
   for (; *s; s++) h = (h ^ (UChar)*s) * 16777619u;
   return h;
}

static void nodes_rehash(void)
{
   UInt i;
   nodes.n_slots = nodes.n_slots ? 2 * nodes.n_slots : 1024;
   VG_(free)(nodes.slots);
   nodes.slots = VG_(calloc)("tareador.comm.nodes", nodes.n_slots, sizeof(UInt));
   for (i = 1; i < nodes.n; i++) {
      UInt s = hash_string(nodes.labels[i]) & (nodes.n_slots - 1);
      while (nodes.slots[s]) s = (s + 1) & (nodes.n_slots - 1);
      nodes.slots[s] = i;
   }
}

static UInt intern(const HChar* label)
{
   UInt s;
   if (2 * nodes.n >= nodes.n_slots) nodes_rehash();
   s = hash_string(label) & (nodes.n_slots - 1);
   while (nodes.slots[s]) {
      if (VG_(strcmp)(nodes.labels[nodes.slots[s]], label) == 0) return nodes.slots[s];
      s = (s + 1) & (nodes.n_slots - 1);
   }
   if (nodes.n >= nodes.max) {
      nodes.max = nodes.max ? 2 * nodes.max : 256;
      nodes.labels = VG_(realloc)("tareador.comm.labels", nodes.labels, nodes.max * sizeof(HChar*));
   }
   nodes.labels[nodes.n] = VG_(strdup)("tareador.comm.label", label);
   nodes.slots[s] = nodes.n;
   return nodes.n++;
}

UWord tr_comm_site(Addr a)
{
   DiEpoch ep = VG_(current_DiEpoch)();
   const HChar *name, *file, *dir;
   HChar label[256];
   UInt line;
   if (clo.granularity == G_LINE && VG_(get_filename_linenum)(ep, a, &file, &dir, &line)) {
      VG_(snprintf)(label, sizeof label, "%s:%u", file, line);
      return intern(label);
   }
   if (clo.granularity == G_LINE || clo.granularity == G_FUNCTION)
      return intern(VG_(get_fnname)(ep, a, &name) ? name : "(unknown)");
   return 0;
}

/* The node running now, for the granularities known only at run time. */
static struct {
   UInt thread_node[TR_THREADS_CACHED];  /* by thread creation number */
   UInt instance, instance_node;  /* the last task instance met, and its node */
} now;

static UInt task_node(void)
{
   const HChar* type = tr_tasks_current_type();
   HChar label[300];
   if (type == NULL) return intern("(no task)");
   if (clo.granularity == G_TASK_TYPE) return intern(type);
   VG_(snprintf)(label, sizeof label, "%s #%u", type, tr_task_current);
   return intern(label);
}

static UInt node_now(UWord site)
{
   UInt thread;
   HChar label[32];
   switch (clo.granularity) {
      case G_THREAD:
         thread = tr_thread_number(VG_(get_running_tid)());
         if (thread < TR_THREADS_CACHED && now.thread_node[thread] != 0) return now.thread_node[thread];
         VG_(snprintf)(label, sizeof label, "thread %u", thread);
         if (thread >= TR_THREADS_CACHED) return intern(label);
         return now.thread_node[thread] = intern(label);
      case G_TASK_TYPE:
      case G_TASK:
         if (now.instance_node == 0 || now.instance != tr_task_current) {
            now.instance = tr_task_current;
            now.instance_node = task_node();
         }
         return now.instance_node;
      default:
         return (UInt)site;
   }
}

/* ---- Edges: (producer, consumer) -> bytes, events, samples ------------------------------------ */

typedef struct {
   ULong key;  /* producer << 32 | consumer; 0: empty (producers are never 0) */
   ULong bytes, events, samples;
} Edge;

static struct {
   Edge* slots;
   UInt n, n_slots;
} edges;

static Edge* edge_slot(Edge* slots, UInt n_slots, ULong key)
{
   UInt s = (UInt)((key * 0x9E3779B97F4A7C15ULL) >> 40) & (n_slots - 1);
   while (slots[s].key != 0 && slots[s].key != key) s = (s + 1) & (n_slots - 1);
   return &slots[s];
}

static Edge* edge(UInt producer, UInt consumer)
{
   ULong key = (ULong)producer << 32 | consumer;
   Edge* e;
   if (2 * (edges.n + 1) > edges.n_slots) {
      Edge* old = edges.slots;
      UInt old_slots = edges.n_slots, i;
      edges.n_slots = edges.n_slots ? 2 * edges.n_slots : 4096;
      edges.slots = VG_(calloc)("tareador.comm.edges", edges.n_slots, sizeof(Edge));
      for (i = 0; i < old_slots; i++)
         if (old[i].key) *edge_slot(edges.slots, edges.n_slots, old[i].key) = old[i];
      VG_(free)(old);
   }
   e = edge_slot(edges.slots, edges.n_slots, key);
   if (e->key == 0) {
      e->key = key;
      edges.n++;
   }
   return e;
}

/* ---- The shadow memory and the accesses ------------------------------------------------------- */

typedef struct {
   UInt producer[TR_SHADOW_LEAF_SPAN];
} Leaf;

static TrShadow shadow = TR_SHADOW_INIT("tareador.comm.shadow", Leaf);

/* A sampled load: its consumer and the producers of its bytes, in runs (up to RUNS: the bytes
   of any further producers count to the last run's). */
#define RUNS 4
typedef struct {
   UInt consumer;
   UInt producer[RUNS];
   UInt bytes[RUNS];
} Sample;

/* Sampled: the loads until the next one the reservoir keeps (that one included), counted down
   by the instrumented code. */
static ULong countdown = 1;

static struct {
   ULong loads;       /* loads seen (exact mode; the reservoir counts its own) */
   ULong unproduced;  /* bytes loaded that no recorded store wrote (exact mode) */
   TrReservoir reservoir;
   Sample* samples;
   Bool written;
} rec;

Bool tr_comm_enabled(void) { return clo.granularity != G_NONE; }

void tr_comm_configure(void)
{
   ULong size;
   if (!tr_comm_enabled() || !clo.sample) return;
   if (clo.z <= 0 || clo.r <= 0 || clo.fe <= 0 || clo.fe >= 1) {
      /* (after the options are read, valgrind's fmsg_bad_option would not stop the run) */
      VG_(fmsg)("tareador: --sample-z, --sample-error, --sample-fraction: expected z > 0, an "
                "error > 0 and a fraction in (0, 1)\n");
      VG_(exit)(1);
   }
   size = clo.size ? (ULong)clo.size : tr_reservoir_size_for(clo.z, clo.r, clo.fe);
   tr_reservoir_init(&rec.reservoir, size, (ULong)clo.seed);
   rec.samples = VG_(malloc)("tareador.comm.samples", size * sizeof(Sample));
}

/* The bytes of a load in runs of one producer each, in address order. */
typedef struct {
   Addr a;
   SizeT left;
} Runs;

static Bool next_run(Runs* it, UInt* producer, UInt* bytes)
{
   const Leaf* leaf;
   UInt at, k, n = 1;
   if (it->left == 0) return False;
   leaf = tr_shadow_leaf(&shadow, it->a, False);
   at = tr_shadow_offset(it->a);
   k = tr_shadow_run(it->a, it->left);
   *producer = leaf ? leaf->producer[at] : 0;
   if (leaf == NULL) n = k;
   while (n < k && leaf->producer[at + n] == *producer) n++;
   it->a += n;
   it->left -= n;
   *bytes = n;
   return True;
}

/* One event per producer a load meets (a run cut by a leaf's end is still one). */
static void load_exactly(Addr a, SizeT size, UInt consumer)
{
   Runs runs = {a, size};
   UInt producer, bytes, previous = 0;
   rec.loads++;
   while (next_run(&runs, &producer, &bytes)) {
      if (producer == 0) {
         rec.unproduced += bytes;
      } else {
         Edge* e = edge(producer, consumer);
         e->bytes += bytes;
         if (producer != previous) e->events++;
      }
      previous = producer;
   }
}

static void load_sampled(Sample* s, Addr a, SizeT size, UInt consumer)
{
   Runs runs = {a, size};
   UInt producer, bytes, n = 0;
   s->consumer = consumer;
   while (next_run(&runs, &producer, &bytes)) {
      if (n > 0 && s->producer[n - 1] == producer) {
         s->bytes[n - 1] += bytes;
      } else if (n < RUNS) {
         s->producer[n] = producer;
         s->bytes[n++] = bytes;
      } else {
         s->bytes[RUNS - 1] += bytes;
      }
   }
   for (; n < RUNS; n++) s->bytes[n] = 0;
}

IRExpr* tr_comm_load_guard(IRSB* sb)
{
   IRExpr* at = mkIRExpr_HWord((HWord)&countdown);
   IRTemp old = newIRTemp(sb->tyenv, Ity_I64), left = newIRTemp(sb->tyenv, Ity_I64);
   IRTemp due = newIRTemp(sb->tyenv, Ity_I1);
   if (!clo.sample) return NULL;
   addStmtToIRSB(sb, IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64, at)));
   addStmtToIRSB(sb, IRStmt_WrTmp(left, IRExpr_Binop(Iop_Sub64, IRExpr_RdTmp(old),
                                                     IRExpr_Const(IRConst_U64(1)))));
   addStmtToIRSB(sb, IRStmt_Store(Iend_LE, at, IRExpr_RdTmp(left)));
   addStmtToIRSB(sb, IRStmt_WrTmp(due, IRExpr_Binop(Iop_CmpEQ64, IRExpr_RdTmp(left),
                                                    IRExpr_Const(IRConst_U64(0)))));
   return IRExpr_RdTmp(due);
}

/* The reservoir keeps this load (the countdown reached it): its slot, and the next countdown. */
static Long kept_slot(void)
{
   Long slot;
   rec.reservoir.seen = rec.reservoir.next - 1;
   slot = tr_reservoir_offer(&rec.reservoir);
   countdown = rec.reservoir.next - rec.reservoir.seen;
   return slot;
}

VG_REGPARM(3) void tr_comm_load(Addr a, UWord size, UWord site)
{
   if (clo.sample) load_sampled(&rec.samples[kept_slot()], a, size, node_now(site));
   else load_exactly(a, size, node_now(site));
}

VG_REGPARM(3) void tr_comm_store(Addr a, UWord size, UWord site)
{
   UInt node = node_now(site);
   while (size > 0) {
      Leaf* leaf = tr_shadow_leaf(&shadow, a, True);
      UInt at = tr_shadow_offset(a), k = tr_shadow_run(a, size), i;
      if (leaf == NULL) return;
      for (i = 0; i < k; i++) leaf->producer[at + i] = node;
      a += k;
      size -= k;
   }
}

/* ---- The file ----------------------------------------------------------------------------------- */

/* The reservoir's samples into the edge table (counts, not yet scaled); the unproduced bytes. */
static ULong tally_samples(void)
{
   ULong i, unproduced = 0;
   UInt j;
   for (i = 0; i < rec.reservoir.filled; i++) {
      const Sample* s = &rec.samples[i];
      for (j = 0; j < RUNS && s->bytes[j]; j++) {
         Edge* e;
         if (s->producer[j] == 0) {
            unproduced += s->bytes[j];
            continue;
         }
         e = edge(s->producer[j], s->consumer);
         e->samples++;
         e->bytes += s->bytes[j];
         e->events++;
      }
   }
   return unproduced;
}

static Int by_key(const void* a, const void* b)
{
   ULong x = ((const Edge*)a)->key, y = ((const Edge*)b)->key;
   return x < y ? -1 : x > y;
}

static void write_edges(TrText* text, const Edge* sorted, UInt n, double scale)
{
   UInt i;
   HChar error[48];
   for (i = 0; i < n; i++) {
      const Edge* e = &sorted[i];
      double err = clo.sample ? tr_reservoir_error(&rec.reservoir, e->samples, clo.z) : 0;
      tr_reservoir_fixed6(error, err);
      tr_text_printf(text, "edge %u %u %llu %llu %s\n", (UInt)(e->key >> 32), (UInt)e->key,
                     (ULong)((double)e->bytes * scale + 0.5), (ULong)((double)e->events * scale + 0.5),
                     error);
   }
}

/* The nodes the edges name, in id order. */
static void write_nodes(TrText* text, const Edge* sorted, UInt n)
{
   UChar* used = VG_(calloc)("tareador.comm.used", nodes.n, 1);
   UInt i;
   for (i = 0; i < n; i++) used[sorted[i].key >> 32] = used[(UInt)sorted[i].key] = 1;
   for (i = 1; i < nodes.n; i++)
      if (used[i]) {
         tr_text_printf(text, "node %u ", i);
         tr_text_field(text, nodes.labels[i]);
         tr_text_append(text, "\n");
      }
   VG_(free)(used);
}

void tr_comm_write(void)
{
   HChar name[64], z[48], r[48], fe[48];
   TrFile file = {.fd = -1};
   Edge* sorted;
   UInt i, n = 0;
   double scale = 1;
   ULong loads = rec.loads, unproduced = rec.unproduced;
   if (!tr_comm_enabled() || rec.written || !tr_trace_is_open()) return;
   rec.written = True;
   VG_(sprintf)(name, TR_SET_COMM, tr_trace_rank());
   if (!tr_trace_create(name, &file)) return;
   if (clo.sample) {
      unproduced = tally_samples();
      loads = rec.reservoir.next - countdown;
      rec.reservoir.seen = loads; /* the errors: exact only if every load was kept */
      if (rec.reservoir.filled > 0) scale = (double)loads / (double)rec.reservoir.filled;
      unproduced = (ULong)((double)unproduced * scale + 0.5);
   }
   sorted = VG_(malloc)("tareador.comm.sorted", (edges.n + 1) * sizeof(Edge));
   for (i = 0; i < edges.n_slots; i++)
      if (edges.slots[i].key) sorted[n++] = edges.slots[i];
   VG_(ssort)(sorted, n, sizeof(Edge), by_key);
   tr_text_printf(&file.text, "# tareador comm v1 rank=%d granularity=%s sample=%s\n",
                  tr_trace_rank(), kGranularities[clo.granularity], clo.sample ? "reservoir" : "off");
   tr_text_printf(&file.text, "loads %llu\nunproduced %llu\n", loads, unproduced);
   if (clo.sample) {
      tr_reservoir_fixed6(z, clo.z);
      tr_reservoir_fixed6(r, clo.r);
      tr_reservoir_fixed6(fe, clo.fe);
      tr_text_printf(&file.text, "sample %llu %llu %s %s %s %lld\n", rec.reservoir.size,
                     rec.reservoir.filled, z, r, fe, clo.seed);
   }
   write_nodes(&file.text, sorted, n);
   write_edges(&file.text, sorted, n, scale);
   tr_text_append(&file.text, "end\n");
   tr_file_close(&file);
   VG_(free)(sorted);
}
