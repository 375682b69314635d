/* tr_coll.c — collectives as point-to-point transfers.

   Three shapes: one to all (Bcast, Scatter[v]: from the root), all to one (Reduce, Gather[v]:
   to the root), all to all (the rest: as all-to-one then one-to-all through member 0, or a
   ring), and the personalised exchange of Alltoall[v]. Sizes: a "block" is one member's part;
   tree and ring transfers of split data (scatter, gather) carry the blocks of the members
   beyond the receiver, whole data (bcast, reduce) travels whole. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"

#include "tr_coll.h"

typedef struct {
   TrCollStep* steps;
   Int n, max;
   Int root, size;  /* positions are relative to the root: member = (v + root) % size */
} Steps;

static void step(Steps* s, Bool send, Int v, ULong bytes, Bool own, ULong offset)
{
   if (s->n == s->max) return;
   s->steps[s->n].send = send;
   s->steps[s->n].peer = (v + s->root) % s->size;
   s->steps[s->n].bytes = bytes;
   s->steps[s->n].own = own;
   s->steps[s->n].offset = offset;
   s->n++;
}

static Int highest_power_of_two(Int x)
{
   Int p = 1;
   while (p * 2 <= x) p *= 2;
   return p;
}

static Int lowest_bit(Int x) { return x & -x; }

static Int min_int(Int a, Int b) { return a < b ? a : b; }

/* The root sends `block` per member (split) or the whole `block` (not split) down a tree,
   a chain or directly. Members keep what reaches them. */
static void one_to_all(Steps* s, TrCollAlgorithm a, Int v, ULong block, Bool split)
{
   Int P = s->size, mask, child;
#define SUBTREE(member, count) (split ? block * (ULong)(count) : block)
#define AT(w) (split ? block * (ULong)(((w) + s->root) % P) : 0)
   switch (a) {
      case TR_COLL_LINEAR:
         if (v == 0)
            for (child = 1; child < P; child++) step(s, True, child, SUBTREE(child, 1), True, AT(child));
         else
            step(s, False, 0, block, True, 0);
         break;
      case TR_COLL_RING:
         if (v > 0) step(s, False, v - 1, SUBTREE(v, P - v), v == P - 1, 0);
         if (v < P - 1) step(s, True, v + 1, SUBTREE(v + 1, P - v - 1), v == 0, AT(v + 1));
         break;
      default: /* binomial: v receives from v - (lowest bit of v), then sends to v + 2^k below it */
         mask = v == 0 ? highest_power_of_two(P - 1) * 2 : lowest_bit(v);
         if (v != 0) step(s, False, v - mask, SUBTREE(v, min_int(mask, P - v)), v + 1 >= P || mask == 1, 0);
         for (mask /= 2; mask >= 1; mask /= 2) {
            child = v + mask;
            if (child < P) step(s, True, child, SUBTREE(child, min_int(mask, P - child)), v == 0, AT(child));
         }
         break;
   }
#undef SUBTREE
#undef AT
}

/* Members send `block` (theirs) or the whole data (combined on the way) towards the root. */
static void all_to_one(Steps* s, TrCollAlgorithm a, Int v, ULong block, Bool split)
{
   Int P = s->size, mask, received = 0;
#define SUBTREE(count) (split ? block * (ULong)(count) : block)
#define AT(w) (split ? block * (ULong)(((w) + s->root) % P) : 0)
   switch (a) {
      case TR_COLL_LINEAR:
         if (v == 0)
            for (mask = 1; mask < P; mask++) step(s, False, mask, block, split, AT(mask));
         else
            step(s, True, 0, block, True, 0);
         break;
      case TR_COLL_RING:
         if (v < P - 1) step(s, False, v + 1, SUBTREE(P - v - 1), v == 0 && split, AT(v + 1));
         if (v > 0) step(s, True, v - 1, SUBTREE(P - v), v == P - 1, 0);
         break;
      default: /* binomial: receive from v + 2^k while bit k of v is 0, then send to the parent */
         for (mask = 1; mask < P; mask *= 2) {
            if (v & mask) {
               step(s, True, v - mask, SUBTREE(min_int(mask, P - v)), received == 0, 0);
               break;
            }
            if (v + mask < P) {
               step(s, False, v + mask, SUBTREE(min_int(mask, P - v - mask)), v == 0 && split,
                    AT(v + mask));
               received++;
            }
         }
         break;
   }
#undef SUBTREE
#undef AT
}

/* A ring of `rounds` rounds: send to the next member, receive from the previous one. */
static void ring(Steps* s, Int v, Int rounds, ULong bytes)
{
   Int P = s->size, r;
   for (r = 0; r < rounds; r++) {
      step(s, True, (v + 1) % P, bytes, r == 0, 0);
      step(s, False, (v + P - 1) % P, bytes, r == rounds - 1, 0);
   }
}

static Bool is(const HChar* name, const HChar* what) { return VG_(strcmp)(name, what) == 0; }

Int tr_coll_steps(TrCollAlgorithm algorithm, const HChar* name, Int me, Int size, Int root,
                  ULong sent, ULong received, TrCollStep* steps, Int max)
{
   Steps s = {steps, 0, max, 0, size};
   Int v, other;
   if (size < 2 || algorithm == TR_COLL_KEEP) return 0;
   if (is(name, "MPI_Bcast") || is(name, "MPI_Scatter") || is(name, "MPI_Scatterv")) {
      Bool split = !is(name, "MPI_Bcast");
      s.root = root;
      v = (me - root + size) % size;
      one_to_all(&s, algorithm, v, v == 0 ? (split ? sent / size : sent) : received, split);
   } else if (is(name, "MPI_Reduce") || is(name, "MPI_Gather") || is(name, "MPI_Gatherv")) {
      s.root = root;
      v = (me - root + size) % size;
      all_to_one(&s, algorithm, v, sent, !is(name, "MPI_Reduce"));
   } else if (is(name, "MPI_Alltoall") || is(name, "MPI_Alltoallv")) {
      /* Pairwise: in round i, to me + i and from me - i (a ring passes blocks on instead). */
      if (algorithm == TR_COLL_RING) {
         ring(&s, me, size - 1, sent / size);
      } else {
         for (other = 1; other < size; other++) {
            step(&s, True, (me + other) % size, sent / size, True, sent / size * ((me + other) % size));
            step(&s, False, (me + size - other) % size, received / size, True,
                 received / size * ((me + size - other) % size));
         }
      }
   } else {
      /* Allreduce, Allgather[v], Reduce_scatter[_block], Scan, Exscan, Barrier. */
      Bool gathers = is(name, "MPI_Allgather") || is(name, "MPI_Allgatherv");
      if (algorithm == TR_COLL_RING) {
         Bool reduces = is(name, "MPI_Allreduce");
         ring(&s, me, reduces ? 2 * (size - 1) : size - 1, gathers ? sent : sent / size);
      } else {
         all_to_one(&s, algorithm, me, sent, gathers);
         one_to_all(&s, algorithm, me, gathers ? received : sent, False);
      }
   }
   return s.n;
}
