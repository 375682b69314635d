/* tr_granules.h — the overlap study's view of memory: per 8-byte granule, the last store, the
   first use of received data, the first store after a send (a shared sparse shadow), and
   passes over the bytes of a message through its layout (contiguous or a derived datatype's
   segments). The access helpers (tr_overlap.c) stamp the granules; the MPI events read them. */
#ifndef TR_GRANULES_H
#define TR_GRANULES_H

#include "pub_tool_basics.h"

#include "tr_clreq.h"
#include "tr_shadow.h"

#define GRANULE_BITS 3
#define GRANULES (TR_SHADOW_LEAF_SPAN >> GRANULE_BITS)
#define WATCHING (~0ULL)

/* Per 8-byte granule: the last store (burst clock + 1; 0: none); while the granule is in a
   received buffer not yet used, WATCHING, then the first use (clock + 1); and after a send of
   its buffer, WATCHING until the first store (clock + 1), which must wait for the send. */
typedef struct {
   ULong last_store[GRANULES];
   ULong first_use[GRANULES];
   ULong first_store[GRANULES];
} TrGranuleLeaf;

extern TrShadow tr_granules;

/* Runs `body` for the granules of [a, a+n), one leaf at a time, with `leaf` (made if `make`),
   `g` its first granule there and `k` how many (a macro: the access helpers stay call-free). */
#define FOR_GRANULES(a, n, make, leaf, g, k, body)                                          \
   do {                                                                                     \
      Addr at_ = (a) >> GRANULE_BITS << GRANULE_BITS;                                       \
      Addr end_ = (a) + (n);                                                                \
      while (at_ < end_) {                                                                  \
         UInt run_ = tr_shadow_run(at_, end_ - at_);                                        \
         TrGranuleLeaf* leaf = tr_shadow_leaf(&tr_granules, at_, (make));                                 \
         UInt g = tr_shadow_offset(at_) >> GRANULE_BITS;                                    \
         UInt k = (run_ + ((1u << GRANULE_BITS) - 1)) >> GRANULE_BITS;                      \
         if (leaf) { body }                                                                 \
         at_ += run_ + ((1u << GRANULE_BITS) - 1);                                          \
         at_ = at_ >> GRANULE_BITS << GRANULE_BITS;                                         \
      }                                                                                     \
   } while (0)

/* Where a message's bytes are: `bytes` from `base`, or, through a non-contiguous datatype, in
   its `n` segments (a copy, owned by whoever holds the layout). Chunks and parts of a message
   are ranges of the bytes sent, in the order they are sent. */
typedef struct {
   Addr base;
   SizeT bytes;
   UInt n;  /* 0: contiguous */
   TrSegment* segments;
} TrLayout;

/* What a pass over memory gathers: a time (clock + 1, 0: none) and its argument. */
typedef struct {
   ULong value, arg;
} TrGather;

typedef void (*TrPieceFn)(Addr a, SizeT n, TrGather* g);

TrLayout tr_layout_contiguous(Addr base, SizeT bytes);

/* The layout of an event's buffer at `base` (a copy of its segments: the client's last only
   during the call). */
TrLayout tr_layout_of(const TrEvent* e, Addr base);

void tr_layout_free(TrLayout* l);

/* Calls `fn` on each piece of memory that holds the bytes [from, to) of the message. */
void tr_for_pieces(const TrLayout* l, SizeT from, SizeT to, TrPieceFn fn, TrGather* g);

/* The value a pass gathers over the bytes [from, to) of a message, at most tr_over_cap: the
   time (clock + 1) of the call being handled. The program's other threads' accesses may be
   timed past it (tr_overlap.c), though they came before it. */
ULong tr_over(const TrLayout* l, SizeT from, SizeT to, TrPieceFn fn, ULong arg);
extern ULong tr_over_cap;

/* The last store at or after `arg` (clock + 1). */
void tr_last_store(Addr a, SizeT n, TrGather* out);

/* The first use since the granules were watched. */
void tr_first_use(Addr a, SizeT n, TrGather* out);

/* The last first use of received data: data passed on cannot leave before it was waited for,
   which is at its first use at the latest. */
void tr_last_first_use(Addr a, SizeT n, TrGather* out);

/* The first store since the send of the granules. */
void tr_first_store(Addr a, SizeT n, TrGather* out);

/* A send reads the granules at clock `arg`: received data it passes on is used by then. */
void tr_use_at(Addr a, SizeT n, TrGather* in);

/* MPI wrote the granules at clock `arg` (a collective's result): as a store of the program. */
void tr_stored_at(Addr a, SizeT n, TrGather* in);

/* The granules were sent: watch for the first store (which must wait for the send). */
void tr_watch_stores(Addr a, SizeT n, TrGather* unused);

/* The granules were received (`arg` 1: watch for their first use) or are no longer used (0). */
void tr_watch(Addr a, SizeT n, TrGather* in);

#endif
