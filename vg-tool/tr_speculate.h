/* tr_speculate.h — speculative dataflow (thesis 5.3.1) emulated over the overlap study's
   granules: where the protocol, which cannot know the future, sends each chunk of a message,
   for the `overlap-speculative` stream (docs/tool.md, "Speculative dataflow").

   The protocol predicts that each send repeats: the next message from a buffer goes to the
   same destination, with the same size. While the buffer is produced again, a chunk leaves as
   soon as production passes it (a store into a later part of the message: production is taken
   to be sequential). A store into a chunk that already left is a mis-speculation: the chunk is
   sent again at the call, as the correction. Every chunk of a message of the program travels
   as two transfers: its data, and its commit, a confirmation of no bytes that leaves with a
   right chunk, or the correction, of the chunk's bytes. A receiver waits for both where it
   first uses the chunk: with a correction, the time it then waits is the re-computation of
   what it computed with the stale chunk (from that first use to the correction's arrival). */
#ifndef TR_SPECULATE_H
#define TR_SPECULATE_H

#include "pub_tool_basics.h"

#include "tr_clreq.h"
#include "tr_granules.h"

/* Chunk [from, to) of a message of the program (the bytes of `l`), produced in the interval
   that began at `start` and ends with the send at `now`, whose destination and size were
   `predicted` by the previous send of its buffer: when its data leaves (returned, never before
   `floor`: received data passes on no earlier than its first use) and its commit (`*commit`;
   `*correction`: the chunk was written after it left). Counted in the statistics. */
ULong tr_spec_chunk(const TrLayout* l, SizeT from, SizeT to, ULong start, ULong now,
                    Bool predicted, ULong floor, ULong* commit, Bool* correction);

/* A store into a chunk of the previous message waits for that chunk's transfers to finish
   (the anti-dependency hazard): counted in the statistics. */
void tr_spec_stall(void);

/* The commit of chunk transfer `chunk`: a confirmation (no bytes) or a correction. It travels
   on the chunk's channel (its tag), right after the chunk, and messages of one channel arrive
   in the order they were sent: the receive posted after the chunk's gets it. Its request is
   apart from every chunk's: + 2^60. */
TrEvent tr_spec_commit(const TrEvent* chunk, Bool correction);
long long tr_spec_commit_request(long long request);

/* The run's statistics: chunks of the program's messages, those sent ahead of the call, those
   mis-speculated, and the stalls. */
void tr_spec_statistics(ULong* chunks, ULong* ahead, ULong* missed, ULong* stalls);

#endif
