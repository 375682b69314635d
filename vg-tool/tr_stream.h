/* tr_stream.h — an artificial stream of the overlap study (overlap-real, overlap-ideal,
   authentic-p2p): records placed at moments of the burst clock as the run goes (a chunk send is
   placed in the past of the send that reveals it), kept in memory, ordered and written at the
   end of the run. */
#ifndef TR_STREAM_H
#define TR_STREAM_H

#include "pub_tool_basics.h"

#include "tr_clreq.h"
#include "tr_file.h"

/* A record at a moment of the burst clock. Records of one moment are written in the order they
   were made (`seq`), but one moved to just before another takes its moment and seq and a lower
   `before` (tr_stream_order_waits). */
typedef struct {
   ULong time, seq;
   Long before;
   ULong message;  /* a wait for a received chunk: which message (its number in the order the
                      authentic run completed its receives, from 1); else 0 */
   TrEvent event;
   Bool dropped;  /* a chunk the message turned out not to need (a receive's room was larger) */
} TrItem;

typedef struct {
   TrItem* items;
   UInt n, max;
   ULong seq;     /* of the next record */
   Long moved;    /* records moved to just before another */
   TrFile out;
} TrStream;

/* Adds `event` at moment `time` (its layout and blocks, the client's, are not kept); returns its
   index in items. */
UInt tr_stream_add(TrStream* s, ULong time, const TrEvent* event);
/* Moves waits for received chunks so that they keep the authentic run's orders (tr_stream.c). */
void tr_stream_order_waits(TrStream* s);
/* Writes the records in order, a burst up to `end`, `end` when `complete`; frees them and
   closes the file. */
void tr_stream_write(TrStream* s, ULong end, Bool complete);

#endif
