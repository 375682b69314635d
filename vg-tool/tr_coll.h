/* tr_coll.h — a collective as the point-to-point transfers one rank makes in it, by a linear,
   binomial-tree or ring algorithm (thesis 4.2.1: the overlap traces break collectives into
   transfers and overlap each). Every member computes its own part; the parts match because
   they come from the same algorithm over the same communicator. */
#ifndef TR_COLL_H
#define TR_COLL_H

#include "pub_tool_basics.h"

#include "tr_clreq.h"

typedef enum { TR_COLL_KEEP, TR_COLL_LINEAR, TR_COLL_BINOMIAL, TR_COLL_RING } TrCollAlgorithm;

typedef struct {
   Bool send;          /* else a receive */
   Int peer;           /* rank in the communicator */
   ULong bytes;
   /* send: of this rank's own data (its send buffer, produced by the program), else data MPI
      has at the call only (received in this collective, or combined there) and passes on;
      receive: data it only keeps (into its receive buffer), else data it passes on or combines
      at the call. */
   Bool own;
   ULong offset;       /* where the data is in the send or receive buffer */
   /* receive: how many of its bytes, from `offset` of the receive buffer, are this rank's result
      (all of an own receive's; a broadcast's also when passed on; none of a partial result). */
   ULong kept;
} TrCollStep;

/* The steps of the member `me` of `size` in collective `name` ("MPI_Bcast", ...) rooted at
   member `root` (0 when it has none), which sends `sent` and receives `received` bytes in all
   (TrEvent's bytes and bytes_recv), and, when the members' blocks differ, `blocks` (TrEvent's:
   what it sends to and receives from each member; NULL: alike). Returns how many steps, at
   most `max`, in order. */
Int tr_coll_steps(TrCollAlgorithm algorithm, const HChar* name, Int me, Int size, Int root,
                  ULong sent, ULong received, const TrSegment* blocks, TrCollStep* steps,
                  Int max);

/* At most this many steps for a communicator of `size`. */
static inline Int tr_coll_max_steps(Int size) { return 4 * size + 8; }

#endif
