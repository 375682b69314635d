/* tr_coll.c — collectives as point-to-point transfers.

   Three shapes: one to all (Bcast, Scatter[v]: from the root), all to one (Reduce, Gather[v]:
   to the root), all to all (the rest: as all-to-one then one-to-all through member 0, or a
   ring), and the personalised exchange of Alltoall[vw]. Sizes: a "block" is one member's part;
   tree and ring transfers of split data (scatter, gather) carry the blocks of the members
   beyond the receiver, whole data (bcast, reduce) travels whole. Members whose blocks differ
   (the v and w collectives) send and receive their own blocks' sizes, where every member can
   know them: Alltoallv and Alltoallw pairwise, Allgatherv by any algorithm, Gatherv and
   Scatterv linearly (only their root knows the counts, which a tree or a chain would have to
   forward). */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"

#include "tr_coll.h"

typedef struct {
   TrCollStep* steps;
   Int n, max;
   Int root, size;  /* positions are relative to the root: member = (v + root) % size */
   const TrSegment* sizes;  /* per member (by rank): its block's bytes and place; NULL: alike */
} Steps;

static void step(Steps* s, Bool send, Int v, ULong bytes, Bool own, ULong offset, ULong kept)
{
   if (s->n == s->max) return;
   s->steps[s->n].send = send;
   s->steps[s->n].peer = (v + s->root) % s->size;
   s->steps[s->n].bytes = bytes;
   s->steps[s->n].own = own;
   s->steps[s->n].offset = offset;
   s->steps[s->n].kept = kept;
   s->n++;
}

static void send_step(Steps* s, Int v, ULong bytes, Bool own, ULong offset)
{
   step(s, True, v, bytes, own, offset, 0);
}

/* A receive of data the rank keeps `kept` bytes of (from the start of its receive buffer,
   or `offset`); `own` when it passes none of it on. */
static void recv_step(Steps* s, Int v, ULong bytes, Bool own, ULong offset, ULong kept)
{
   step(s, False, v, bytes, own, offset, kept);
}

static Int highest_power_of_two(Int x)
{
   Int p = 1;
   while (p * 2 <= x) p *= 2;
   return p;
}

static Int lowest_bit(Int x) { return x & -x; }

static Int min_int(Int a, Int b) { return a < b ? a : b; }

/* The bytes of the blocks of the `count` members from position `v` on: `block` each, or their
   own sizes. */
static ULong span(const Steps* s, Int v, Int count, ULong block)
{
   ULong total = 0;
   Int w;
   if (s->sizes == NULL) return block * (ULong)count;
   for (w = v; w < v + count; w++) total += (ULong)s->sizes[(w + s->root) % s->size].length;
   return total;
}

/* Where the block of the member at position `w` is in the buffer. */
static ULong place(const Steps* s, Int w, ULong block)
{
   Int member = (w + s->root) % s->size;
   return s->sizes ? (ULong)s->sizes[member].offset : block * (ULong)member;
}

/* The root sends `block` per member (split) or the whole `block` (not split) down a tree, a
   chain or directly: its own data when `root_owns` (a broadcast, a scatter), else a result
   MPI computed at the call (the second half of an all-to-all collective). Members keep their
   block (or the whole data), and pass on what belongs to the members below them. */
static void one_to_all(Steps* s, TrCollAlgorithm a, Int v, ULong block, Bool split,
                       Bool root_owns)
{
   Int P = s->size, mask, child;
#define SUBTREE(member, count) (split ? span(s, member, count, block) : block)
#define AT(w) (split ? place(s, w, block) : 0)
   switch (a) {
      case TR_COLL_LINEAR:
         if (v == 0)
            for (child = 1; child < P; child++) send_step(s, child, SUBTREE(child, 1), root_owns, AT(child));
         else
            recv_step(s, 0, block, True, 0, block);
         break;
      case TR_COLL_RING:
         if (v > 0) recv_step(s, v - 1, SUBTREE(v, P - v), v == P - 1, 0, block);
         if (v < P - 1) send_step(s, v + 1, SUBTREE(v + 1, P - v - 1), v == 0 && root_owns, AT(v + 1));
         break;
      default: /* binomial: v receives from v - (lowest bit of v), then sends to v + 2^k below it */
         mask = v == 0 ? highest_power_of_two(P - 1) * 2 : lowest_bit(v);
         if (v != 0)
            recv_step(s, v - mask, SUBTREE(v, min_int(mask, P - v)), v + 1 >= P || mask == 1, 0, block);
         for (mask /= 2; mask >= 1; mask /= 2) {
            child = v + mask;
            if (child < P) send_step(s, child, SUBTREE(child, min_int(mask, P - child)), v == 0 && root_owns, AT(child));
         }
         break;
   }
#undef SUBTREE
#undef AT
}

/* Members send `block` (theirs) or the whole data (combined on the way) towards the root; the
   root keeps the blocks of a gather, and combines the partial results of a reduction. */
static void all_to_one(Steps* s, TrCollAlgorithm a, Int v, ULong block, Bool split)
{
   Int P = s->size, mask, received = 0;
   ULong bytes;
#define SUBTREE(from, count) (split ? span(s, from, count, block) : block)
#define AT(w) (split ? place(s, w, block) : 0)
#define KEPT(b) (v == 0 && split ? (b) : 0)
   switch (a) {
      case TR_COLL_LINEAR:
         if (v == 0)
            for (mask = 1; mask < P; mask++) {
               bytes = SUBTREE(mask, 1);
               recv_step(s, mask, bytes, split, AT(mask), KEPT(bytes));
            }
         else
            send_step(s, 0, block, True, 0);
         break;
      case TR_COLL_RING:
         bytes = SUBTREE(v + 1, P - v - 1);
         if (v < P - 1) recv_step(s, v + 1, bytes, v == 0 && split, AT(v + 1), KEPT(bytes));
         if (v > 0) send_step(s, v - 1, SUBTREE(v, P - v), v == P - 1, 0);
         break;
      default: /* binomial: receive from v + 2^k while bit k of v is 0, then send to the parent */
         for (mask = 1; mask < P; mask *= 2) {
            if (v & mask) {
               send_step(s, v - mask, SUBTREE(v, min_int(mask, P - v)), received == 0, 0);
               break;
            }
            if (v + mask < P) {
               bytes = SUBTREE(v + mask, min_int(mask, P - v - mask));
               recv_step(s, v + mask, bytes, v == 0 && split, AT(v + mask), KEPT(bytes));
               received++;
            }
         }
         break;
   }
#undef SUBTREE
#undef AT
#undef KEPT
}

/* A ring of `rounds` rounds of `bytes`: send to the next member, receive from the previous one.
   The rank sends its own data in the first round and passes on, or combines, what it received
   after that; from round `kept_from` on (at most the last), each block received is part of
   its result: in round j of those, the block of member v - 1 - j (of its own size, when the
   members' blocks differ: an allgather, whose every round passes one block on). */
static void ring(Steps* s, Int v, Int rounds, ULong bytes, Int kept_from)
{
   Int P = s->size, r;
   for (r = 0; r < rounds; r++) {
      Bool keeps = r >= kept_from;
      Int from = (v + P - 1 - (r - kept_from) % P) % P;  /* whose block arrives, when kept */
      ULong out = s->sizes ? span(s, (v + P - r % P) % P, 1, 0) : bytes;
      ULong in = s->sizes ? span(s, from, 1, 0) : bytes;
      send_step(s, (v + 1) % P, out, r == 0, 0);
      recv_step(s, (v + P - 1) % P, in, r == rounds - 1, keeps ? place(s, from, bytes) : 0,
                keeps ? in : 0);
   }
}

static Bool is(const HChar* name, const HChar* what) { return VG_(strcmp)(name, what) == 0; }

/* The blocking collective a non-blocking or persistent one is (MPI_Ibcast, MPI_Bcast_init:
   MPI_Bcast), which it is recorded as and moves the same blocks as; other names as they are. */
static const HChar* blocking_name(const HChar* name, HChar* buffer, SizeT size)
{
   SizeT n = VG_(strlen)(name);
   Bool immediate = VG_(strncmp)(name, "MPI_I", 5) == 0 && name[5] >= 'a' && name[5] <= 'z';
   Bool persistent = n > 9 && VG_(strcmp)(name + n - 5, "_init") == 0;
   if ((!immediate && !persistent) || n >= size) return name;
   VG_(strcpy)(buffer, "MPI_");
   VG_(strcat)(buffer, name + (immediate ? 5 : 4));
   if (immediate) buffer[4] = (HChar)(buffer[4] - 'a' + 'A');
   if (persistent) buffer[VG_(strlen)(buffer) - 5] = '\0';
   return buffer;
}

Int tr_coll_steps(TrCollAlgorithm algorithm, const HChar* call, Int me, Int size, Int root,
                  ULong sent, ULong received, const TrSegment* blocks, TrCollStep* steps, Int max)
{
   Steps s = {steps, 0, max, 0, size, NULL};
   Int v, other;
   HChar buffer[64];
   const HChar* name = blocking_name(call, buffer, sizeof buffer);
   if (size < 2 || algorithm == TR_COLL_KEEP) return 0;
   if (is(name, "MPI_Bcast") || is(name, "MPI_Scatter") || is(name, "MPI_Scatterv")) {
      Bool split = !is(name, "MPI_Bcast");
      s.root = root;
      v = (me - root + size) % size;
      if (is(name, "MPI_Scatterv")) {
         algorithm = TR_COLL_LINEAR;
         s.sizes = blocks;  /* what the root sends each member */
      }
      one_to_all(&s, algorithm, v, v == 0 ? (split ? sent / size : sent) : received, split, True);
   } else if (is(name, "MPI_Reduce") || is(name, "MPI_Gather") || is(name, "MPI_Gatherv")) {
      s.root = root;
      v = (me - root + size) % size;
      if (is(name, "MPI_Gatherv")) {
         algorithm = TR_COLL_LINEAR;
         s.sizes = blocks ? blocks + size : NULL;  /* what the root receives from each member */
      }
      /* A gather's root may send nothing (MPI_IN_PLACE): a block is what it gets from each. */
      all_to_one(&s, algorithm, v, v == 0 && is(name, "MPI_Gather") ? received / size : sent,
                 !is(name, "MPI_Reduce"));
   } else if (is(name, "MPI_Alltoall") || is(name, "MPI_Alltoallv") ||
              is(name, "MPI_Alltoallw")) {
      /* Pairwise: in round i, to me + i and from me - i (a ring passes blocks on instead, but
         not blocks of the members' own sizes, which only their senders and receivers know). */
      if (algorithm == TR_COLL_RING && blocks == NULL) {
         ring(&s, me, size - 1, sent / size, 0);
      } else {
         for (other = 1; other < size; other++) {
            Int to = (me + other) % size, from = (me + size - other) % size;
            ULong out = blocks ? (ULong)blocks[to].length : sent / size;
            ULong in = blocks ? (ULong)blocks[size + from].length : received / size;
            send_step(&s, to, out, True, blocks ? (ULong)blocks[to].offset : out * (ULong)to);
            recv_step(&s, from, in, True,
                      blocks ? (ULong)blocks[size + from].offset : in * (ULong)from, in);
         }
      }
   } else {
      /* Allreduce, Allgather[v], Reduce_scatter[_block], Scan, Exscan, Barrier. */
      Bool gathers = is(name, "MPI_Allgather") || is(name, "MPI_Allgatherv");
      if (is(name, "MPI_Allgatherv") && blocks) s.sizes = blocks + size;  /* every member's */
      if (algorithm == TR_COLL_RING) {
         /* Allreduce: a reduce-scatter (partial results combined), then an allgather. */
         Bool reduces = is(name, "MPI_Allreduce");
         Int rounds = reduces ? 2 * (size - 1) : size - 1;
         ring(&s, me, rounds, gathers ? sent : sent / size,
              gathers ? 0 : reduces ? size - 1 : rounds - 1);
      } else {
         all_to_one(&s, algorithm, me, sent, gathers);
         one_to_all(&s, algorithm, me, gathers ? received : sent, False, False);
      }
   }
   return s.n;
}
