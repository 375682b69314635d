/* tr_speculate.c — speculative dataflow over the granules (tr_speculate.h).

   All of it is read at the send from the stamps the access helpers leave: the first store
   into each granule since the previous send of the buffer (which says when production passed
   a chunk) and the last store in the interval (which says whether the chunk was written again
   after it left). The protocol's own state, chunk by chunk as the stores come, would give the
   same answers: a chunk leaves at the first store beyond it, and is mis-speculated by any
   store into it after that. */

#include "pub_tool_basics.h"

#include "tr_speculate.h"

#define COMMIT_REQUEST (1LL << 60)

static struct {
   ULong chunks, ahead, missed, stalls;
} stats;

ULong tr_spec_chunk(const TrLayout* l, SizeT from, SizeT to, ULong start, ULong now,
                    Bool predicted, ULong floor, ULong* commit, Bool* correction)
{
   /* production passed the chunk at the first store beyond it (clock + 1; 0: never) */
   ULong passed = predicted ? tr_over(l, to, l->bytes, tr_first_store, 0) : 0;
   ULong data;
   stats.chunks++;
   *correction = False;
   if (passed == 0 || passed - 1 >= now) {  /* never passed: it goes with the call */
      *commit = now;
      return now;
   }
   data = passed - 1 > floor ? passed - 1 : floor;
   stats.ahead++;
   *correction = tr_over(l, from, to, tr_last_store, start) > passed;
   if (*correction) stats.missed++;
   *commit = *correction ? now : data;
   return data;
}

void tr_spec_stall(void) { stats.stalls++; }

TrEvent tr_spec_commit(const TrEvent* chunk, Bool correction)
{
   TrEvent c = *chunk;
   c.request = tr_spec_commit_request(chunk->request);
   if (chunk->kind == TR_EV_SEND && !correction) c.bytes = 0;
   return c;
}

long long tr_spec_commit_request(long long request)
{
   return request ? request + COMMIT_REQUEST : 0;
}

void tr_spec_statistics(ULong* chunks, ULong* ahead, ULong* missed, ULong* stalls)
{
   *chunks = stats.chunks;
   *ahead = stats.ahead;
   *missed = stats.missed;
   *stalls = stats.stalls;
}
