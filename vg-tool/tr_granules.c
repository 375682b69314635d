/* tr_granules.c — the overlap study's granules and the passes over a message's bytes
   (tr_granules.h). */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "tr_granules.h"

TrShadow tr_granules = TR_SHADOW_INIT("tareador.overlap", TrGranuleLeaf);

TrLayout tr_layout_contiguous(Addr base, SizeT bytes)
{
   TrLayout l = {base, bytes, 0, NULL};
   return l;
}

/* The layout of an event's buffer at `base` (a copy of its segments: the client's last only
   during the call). */
TrLayout tr_layout_of(const TrEvent* e, Addr base)
{
   TrLayout l = tr_layout_contiguous(base, (SizeT)e->bytes);
   if (e->layout != NULL && e->layout_n > 0) {
      l.n = (UInt)e->layout_n;
      l.segments = VG_(malloc)("tareador.overlap.layout", l.n * sizeof(TrSegment));
      VG_(memcpy)(l.segments, e->layout, l.n * sizeof(TrSegment));
   }
   return l;
}

void tr_layout_free(TrLayout* l)
{
   if (l->segments) VG_(free)(l->segments);
   l->segments = NULL;
   l->n = 0;
}

/* Calls `fn` on each piece of memory that holds the bytes [from, to) of the message. */
void tr_for_pieces(const TrLayout* l, SizeT from, SizeT to, TrPieceFn fn, TrGather* g)
{
   UInt i;
   SizeT at = 0;
   if (l->n == 0) {
      if (to > from) fn(l->base + from, to - from, g);
      return;
   }
   for (i = 0; i < l->n && at < to; i++) {
      SizeT length = (SizeT)l->segments[i].length;
      SizeT lo = from > at ? from - at : 0, hi = to - at < length ? to - at : length;
      if (lo < hi) fn(l->base + (Addr)l->segments[i].offset + lo, hi - lo, g);
      at += length;
   }
}

ULong tr_over_cap = ~0ULL;

/* The value a pass gathers over the bytes [from, to) of a message. */
ULong tr_over(const TrLayout* l, SizeT from, SizeT to, TrPieceFn fn, ULong arg)
{
   TrGather g = {0, arg};
   tr_for_pieces(l, from, to, fn, &g);
   return g.value < tr_over_cap ? g.value : tr_over_cap;
}

/* The last store at or after `arg` (clock + 1). */
void tr_last_store(Addr a, SizeT n, TrGather* out)
{
   FOR_GRANULES(a, n, False, leaf, g, k, {
      UInt i;
      for (i = g; i < g + k && i < GRANULES; i++)
         if (leaf->last_store[i] > out->arg && leaf->last_store[i] > out->value)
            out->value = leaf->last_store[i];
   });
}

/* The earliest of the stamps[g, g+k) of a leaf, granules still watched or never watched aside. */
static void earliest(const ULong* stamps, UInt g, UInt k, TrGather* out)
{
   UInt i;
   for (i = g; i < g + k && i < GRANULES; i++) {
      ULong u = stamps[i];
      if (u != WATCHING && u != 0 && (out->value == 0 || u < out->value)) out->value = u;
   }
}

/* The first use since the granules were watched. */
void tr_first_use(Addr a, SizeT n, TrGather* out)
{
   FOR_GRANULES(a, n, False, leaf, g, k, { earliest(leaf->first_use, g, k, out); });
}

/* The last first use of received data: data passed on cannot leave before it was waited for,
   which is at its first use at the latest. */
void tr_last_first_use(Addr a, SizeT n, TrGather* out)
{
   FOR_GRANULES(a, n, False, leaf, g, k, {
      UInt i;
      for (i = g; i < g + k && i < GRANULES; i++) {
         ULong u = leaf->first_use[i];
         if (u != WATCHING && u > out->value) out->value = u;
      }
   });
}

/* The first store since the send of the granules. */
void tr_first_store(Addr a, SizeT n, TrGather* out)
{
   FOR_GRANULES(a, n, False, leaf, g, k, { earliest(leaf->first_store, g, k, out); });
}

/* A send reads the granules at clock `arg`: received data it passes on is used by then. */
void tr_use_at(Addr a, SizeT n, TrGather* in)
{
   FOR_GRANULES(a, n, False, leaf, g, k, {
      UInt i;
      for (i = g; i < g + k && i < GRANULES; i++)
         if (leaf->first_use[i] == WATCHING) leaf->first_use[i] = in->arg + 1;
   });
}

/* MPI wrote the granules at clock `arg` (a collective's result): as a store of the program. */
void tr_stored_at(Addr a, SizeT n, TrGather* in)
{
   FOR_GRANULES(a, n, True, leaf, g, k, {
      UInt i;
      for (i = g; i < g + k && i < GRANULES; i++) leaf->last_store[i] = in->arg + 1;
   });
}

/* The granules were sent: watch for the first store (which must wait for the send). */
void tr_watch_stores(Addr a, SizeT n, TrGather* unused)
{
   FOR_GRANULES(a, n, True, leaf, g, k, {
      UInt i;
      for (i = g; i < g + k && i < GRANULES; i++) leaf->first_store[i] = WATCHING;
   });
}

/* The granules were received (`arg` 1: watch for their first use) or are no longer used (0). */
void tr_watch(Addr a, SizeT n, TrGather* in)
{
   FOR_GRANULES(a, n, in->arg, leaf, g, k, {
      UInt i;
      for (i = g; i < g + k && i < GRANULES; i++) leaf->first_use[i] = in->arg ? WATCHING : 0;
   });
}
