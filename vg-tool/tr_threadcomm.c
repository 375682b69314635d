/* tr_threadcomm.c — Algorithm 1 of "Communication Detection in Shared Memory", with the bytes
   that tell true from spatially false communication.

   Shadow leaves (tr_shadow.h) of 64 KB of memory hold, per byte and per block, the queue of the
   two threads that touched it last (front: the older, back: the more recent; 0 when empty).
   Threads are their creation numbers (tr_threads.h), up to 255 (a byte each); the accesses of
   threads past that are left out, with a warning in the trace set.
   An event on a block is true when its source is in the queue of a byte the access touches. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"

#include "tracefmt/set_layout.h"
#include "tr_file.h"
#include "tr_shadow.h"
#include "tr_stack.h"
#include "tr_threadcomm.h"
#include "tr_threads.h"
#include "tr_trace.h"

#define MAX_THREADS 256

static Bool clo_thread_comm = False;
static Long clo_granularity = 6;

Bool tr_threadcomm_option(const HChar* arg)
{
   if VG_BOOL_CLO (arg, "--thread-comm", clo_thread_comm) {
   } else if VG_BINT_CLO (arg, "--comm-granularity", clo_granularity, 0, TR_SHADOW_LEAF_BITS) {
   } else {
      return False;
   }
   return True;
}

void tr_threadcomm_print_usage(void)
{
   VG_(printf)(
      "    --thread-comm=yes|no     record the communication between threads in blocks of\n"
      "                             2^G bytes into threadcomm.N.txt [no]\n"
      "    --comm-granularity=G     that G (0..16; 6: 64-byte cache lines) [6]\n");
}

/* Per pair (source: the thread remembered, destination: the one accessing). */
typedef struct {
   ULong events, true_events, bytes;
} Pair;

static struct {
   Pair* pairs;      /* [source * MAX_THREADS + destination] */
   ULong accesses[MAX_THREADS];
   Bool too_many_threads, written;
   UInt block_bits;
} tc;

static TrShadow shadow = {.name = "tareador.threadcomm.shadow"};

Bool tr_threadcomm_enabled(void) { return clo_thread_comm; }

void tr_threadcomm_configure(void)
{
   if (!clo_thread_comm) return;
   tc.block_bits = (UInt)clo_granularity;
   /* A leaf: the queue of each byte, then the queue of each block. */
   shadow.leaf_size = (TR_SHADOW_LEAF_SPAN + (TR_SHADOW_LEAF_SPAN >> tc.block_bits)) * sizeof(UShort);
   tc.pairs = VG_(calloc)("tareador.threadcomm.pairs", MAX_THREADS * MAX_THREADS, sizeof(Pair));
}

static inline UInt front_of(UShort queue) { return queue & 0xff; }
static inline UInt back_of(UShort queue) { return queue >> 8; }
static inline UShort queue_of(UInt front, UInt back) { return (UShort)(front | back << 8); }

/* An event from `source` to `tid` by the access of [from, to), whose bytes' queues are in
   `bytes`. */
static void event(UInt source, UInt tid, const UShort* bytes, UInt from, UInt to)
{
   Pair* p = &tc.pairs[source * MAX_THREADS + tid];
   UInt i;
   p->events++;
   p->bytes += to - from;
   for (i = from; i < to; i++)
      if (front_of(bytes[i]) == source || back_of(bytes[i]) == source) {
         p->true_events++;
         return;
      }
}

/* Algorithm 1 on the block whose queue is `queue`, for thread `tid` touching [from, to). */
static void block_access(UShort* queue, UInt tid, const UShort* bytes, UInt from, UInt to)
{
   UInt front = front_of(*queue), back = back_of(*queue);
   if (front == 0) {
      *queue = queue_of(tid, 0);
   } else if (back == 0) {
      if (front != tid) {
         event(front, tid, bytes, from, to);
         *queue = queue_of(front, tid);
      }
   } else if (front != tid && back != tid) {
      event(front, tid, bytes, from, to);
      event(back, tid, bytes, from, to);
      *queue = queue_of(back, tid);
   } else if (front == tid) {
      event(back, tid, bytes, from, to);
      *queue = queue_of(back, tid); /* tid is now the more recent */
   } else {
      event(front, tid, bytes, from, to);
   }
}

/* `tid` touched the byte whose queue is `queue`: it becomes the more recent of the two. */
static void byte_access(UShort* queue, UInt tid)
{
   UInt front = front_of(*queue), back = back_of(*queue);
   if (back == tid || (front == tid && back == 0)) return;
   if (front == 0) *queue = queue_of(tid, 0);
   else if (back == 0) *queue = queue_of(front, tid);
   else *queue = queue_of(back, tid); /* the older goes, or tid moves to the back */
}

VG_REGPARM(2) void tr_threadcomm_access(Addr a, UWord size)
{
   ThreadId running = VG_(get_running_tid)();
   UInt tid = tr_thread_number(running);
   /* (The MPI library's own threads share its state, not the program's data.) */
   if (!tr_threads_of_program(running)) return;
   if (tid >= MAX_THREADS) {
      tc.too_many_threads = True;
      return;
   }
   tc.accesses[tid]++;
   while (size > 0) {
      UShort* bytes = tr_shadow_leaf(&shadow, a, True);
      UInt at = tr_shadow_offset(a), k = tr_shadow_run(a, size), from = at, i;
      UShort* blocks;
      if (bytes == NULL) return;
      blocks = bytes + TR_SHADOW_LEAF_SPAN;
      /* Each block the access touches, then the bytes' new last thread. */
      while (from < at + k) {
         UInt block = from >> tc.block_bits, end = (block + 1) << tc.block_bits;
         if (end > at + k) end = at + k;
         block_access(&blocks[block], tid, bytes, from, end);
         from = end;
      }
      for (i = at; i < at + k; i++) byte_access(&bytes[i], tid);
      a += k;
      size -= k;
   }
}

/* Block `block` of a leaf forgets its threads when none of its bytes remembers one (the dead
   memory reaches into it from one side, the bytes left were dead already: the two halves of a
   frame's line that a pop and then a return release). */
static void forget_if_unused(UShort* bytes, UInt block)
{
   UInt from = block << tc.block_bits, to = (block + 1) << tc.block_bits, i;
   if (bytes[TR_SHADOW_LEAF_SPAN + block] == 0) return;
   /* (Four queues a word: blocks of 4 bytes or more start on a word, leaves are word-aligned.) */
   if (to - from >= 4) {
      const ULong* words = (const ULong*)(bytes + from);
      for (i = 0; i < (to - from) / 4; i++)
         if (words[i]) return;
   } else {
      for (i = from; i < to; i++)
         if (bytes[i]) return;
   }
   bytes[TR_SHADOW_LEAF_SPAN + block] = 0;
}

/* The bytes of [a, a+n) forget their threads, and so do the blocks wholly inside it. */
void tr_threadcomm_forget(Addr a, SizeT n)
{
   if (!clo_thread_comm) return;
   while (n > 0) {
      UShort* bytes = tr_shadow_leaf(&shadow, a, False);
      UInt at = tr_shadow_offset(a), k = tr_shadow_run(a, n);
      if (bytes != NULL) {
         UInt first = (at + (1u << tc.block_bits) - 1) >> tc.block_bits;
         UInt end = (at + k) >> tc.block_bits;
         VG_(memset)(bytes + at, 0, k * sizeof(UShort));
         if (end > first)
            VG_(memset)(bytes + TR_SHADOW_LEAF_SPAN + first, 0, (end - first) * sizeof(UShort));
         if (at & ((1u << tc.block_bits) - 1)) forget_if_unused(bytes, at >> tc.block_bits);
         if ((at + k) & ((1u << tc.block_bits) - 1) &&
             (at + k) >> tc.block_bits != at >> tc.block_bits)
            forget_if_unused(bytes, (at + k) >> tc.block_bits);
      }
      a += k;
      n -= k;
   }
}

/* A move to another stack (a coroutine's, a signal's) is no rise: only one within the thread's
   stack counts. */
VG_REGPARM(3) void tr_threadcomm_stack_rises(Addr old_sp, Addr new_sp, UWord returned)
{
   ThreadId tid = VG_(get_running_tid)();
   Addr top = VG_(thread_get_stack_max)(tid), low, dead;
   tr_stack_dead_range(old_sp, new_sp, returned, &low, &dead);
   if (new_sp > top + 1 || old_sp + VG_(thread_get_stack_size)(tid) < top + 1 || dead <= low)
      return;
   tr_threadcomm_forget(low, dead - low);
}

/* What is left of its stack dies with it (a thread created later may get the stack from the C
   library's cache). */
void tr_threadcomm_thread_ends(ThreadId tid)
{
   Addr top, low;
   if (!clo_thread_comm) return;
   top = VG_(thread_get_stack_max)(tid);
   low = VG_(get_SP)(tid) - TR_RED_ZONE;
   if (low >= top || top - low > VG_(thread_get_stack_size)(tid)) return;
   tr_threadcomm_forget(low, top + 1 - low);
}

void tr_threadcomm_write(void)
{
   HChar name[64];
   TrFile file = {.fd = -1};
   UInt s, d;
   if (!clo_thread_comm || tc.written || !tr_trace_is_open()) return;
   tc.written = True;
   if (tc.too_many_threads) {
      tr_trace_warning("--thread-comm: the accesses of threads past the 255th are not counted");
      VG_(umsg)("tareador: warning: --thread-comm: the accesses of threads past the 255th are "
                "not counted\n");
   }
   VG_(sprintf)(name, TR_SET_THREADS, tr_trace_rank());
   if (!tr_trace_create(name, &file)) return;
   tr_text_printf(&file.text, "# tareador threadcomm v1 rank=%d granularity=%u\n", tr_trace_rank(),
                  tc.block_bits);
   for (s = 0; s < MAX_THREADS; s++)
      if (tc.accesses[s]) tr_text_printf(&file.text, "thread %u %llu\n", s, tc.accesses[s]);
   for (s = 0; s < MAX_THREADS; s++)
      for (d = 0; d < MAX_THREADS; d++) {
         const Pair* p = &tc.pairs[s * MAX_THREADS + d];
         if (p->events)
            tr_text_printf(&file.text, "pair %u %u %llu %llu %llu\n", s, d, p->events,
                           p->true_events, p->bytes);
      }
   tr_text_append(&file.text, "end\n");
   tr_file_close(&file);
}
