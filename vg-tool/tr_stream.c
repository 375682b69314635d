/* tr_stream.c — the artificial streams of the overlap study (tr_stream.h). */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "tr_stream.h"
#include "tr_text.h"

UInt tr_stream_add(TrStream* s, ULong time, const TrEvent* event)
{
   TrItem* item;
   if (s->n == s->max) {
      s->max = s->max ? 2 * s->max : 1024;
      s->items = VG_(realloc)("tareador.overlap.items", s->items, s->max * sizeof(TrItem));
   }
   item = &s->items[s->n];
   item->time = time;
   item->seq = s->seq++;
   item->event = *event;
   item->event.layout = NULL;  /* the client's, gone after the call */
   item->event.layout_n = 0;
   item->event.blocks = NULL;
   item->event.blocks_n = 0;
   item->dropped = False;
   item->before = 0;
   item->message = 0;
   return s->n++;
}

/* The order of records in a stream: by moment, then as made (or moved: `before`). */
static Int item_order(const TrItem* x, const TrItem* y)
{
   if (x->time != y->time) return x->time < y->time ? -1 : 1;
   if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
   return x->before < y->before ? -1 : x->before > y->before;
}

static Int by_time(const void* a, const void* b) { return item_order(a, b); }

/* The stream whose record indices order_waits sorts. */
static const TrItem* sorting;

/* Waits of one message together, the messages last to first, each message's in stream order. */
static Int by_message(const void* a, const void* b)
{
   const TrItem* x = &sorting[*(const UInt*)a];
   const TrItem* y = &sorting[*(const UInt*)b];
   if (x->message != y->message) return x->message > y->message ? -1 : 1;
   return item_order(x, y);
}

/* Whether two receives are of one channel (source, tag, communicator). */
static Bool by_channel_only(const TrEvent* x, const TrEvent* y)
{
   return x->peer == y->peer && x->tag == y->tag && x->comm == y->comm;
}

/* Receives by channel, each channel's last posted first. */
static Int by_channel(const void* a, const void* b)
{
   const TrEvent* x = &sorting[*(const UInt*)a].event;
   const TrEvent* y = &sorting[*(const UInt*)b].event;
   if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
   if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
   if (x->comm != y->comm) return x->comm < y->comm ? -1 : 1;
   return item_order(&sorting[*(const UInt*)b], &sorting[*(const UInt*)a]);
}

/* Waits by request. */
static Int by_request(const void* a, const void* b)
{
   long long x = sorting[*(const UInt*)a].event.request, y = sorting[*(const UInt*)b].event.request;
   return x < y ? -1 : x > y;
}

/* The position in `waits` (sorted by request) of the wait for `request`; `n` if none. */
static UInt wait_of(const TrStream* s, const UInt* waits, UInt n, long long request)
{
   UInt lo = 0, hi = n;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (s->items[waits[mid]].event.request < request) lo = mid + 1;
      else hi = mid;
   }
   return lo < n && s->items[waits[lo]].event.request == request ? lo : n;
}

/* Moves record `i` of stream `s` to just before record `bound` if it is after it. */
static void not_after(TrStream* s, UInt i, UInt bound)
{
   TrItem* x = &s->items[i];
   const TrItem* b = &s->items[bound];
   if (item_order(x, b) <= 0) return;
   x->time = b->time;
   x->seq = b->seq;
   x->before = --s->moved;
}

/* The waits for received chunks keep two orders of the authentic run. (1) The first wait of
   each message comes no later than the first wait of any message completed after it: in the
   model, as in Dimemas, each wait for a receive costs its latency on the receiver's CPU, which
   is hidden while the receiver waits for a message still on its way; a message waited for
   after one that arrives later would pay it on top, and a run with one chunk per message
   could take longer than its baseline. The other chunks' waits are free (chunking adds their
   latencies anyway). (2) On each channel, chunks are waited for in the order they were posted:
   messages of one channel arrive in order, and Dimemas matches a wait to the oldest immediate
   receive of its channel, so this is the only order a .dim trace can express. */
void tr_stream_order_waits(TrStream* s)
{
   UInt n = 0, i, j, *waits, *receives, n_receives = 0;
   waits = VG_(malloc)("tareador.overlap.order", (s->n + 1) * sizeof(UInt));
   receives = VG_(malloc)("tareador.overlap.order", (s->n + 1) * sizeof(UInt));
   for (i = 0; i < s->n; i++) {
      if (s->items[i].message > 0) waits[n++] = i;
      if (s->items[i].event.kind == TR_EV_RECV && s->items[i].event.immediate &&
          s->items[i].event.request != 0 && !s->items[i].dropped)
         receives[n_receives++] = i;
   }
   sorting = s->items;
   VG_(ssort)(waits, n, sizeof(UInt), by_message);
   for (i = 0, j = n; i < n; i++) {  /* j: the first wait of the message after this one */
      if (i > 0 && s->items[waits[i]].message == s->items[waits[i - 1]].message) continue;
      if (j < n) not_after(s, waits[i], waits[j]);
      j = i;
   }
   /* (2): the wait of each receive no later than that of the next one posted on its channel */
   VG_(ssort)(waits, n, sizeof(UInt), by_request);
   VG_(ssort)(receives, n_receives, sizeof(UInt), by_channel);
   for (i = 0, j = n; i < n_receives; i++) {  /* j: the wait of the channel's next receive */
      UInt w = wait_of(s, waits, n, s->items[receives[i]].event.request);
      if (i > 0 && by_channel_only(&s->items[receives[i]].event, &s->items[receives[i - 1]].event) &&
          w < n && j < n)
         not_after(s, waits[w], waits[j]);
      j = w;
   }
   VG_(free)(receives);
   VG_(free)(waits);
}

void tr_stream_write(TrStream* s, ULong end, Bool complete)
{
   ULong clock = 0;
   UInt i;
   VG_(ssort)(s->items, s->n, sizeof(TrItem), by_time);
   for (i = 0; i < s->n; i++) {
      if (s->items[i].dropped) continue;
      if (s->items[i].time > clock) tr_text_burst(&s->out.text, s->items[i].time - clock);
      if (s->items[i].time > clock) clock = s->items[i].time;
      tr_text_mpi(&s->out.text, &s->items[i].event);
      tr_file_write_due(&s->out);
   }
   if (end > clock) tr_text_burst(&s->out.text, end - clock);
   if (complete) tr_text_record(&s->out.text, "end");
   tr_text_end_records(&s->out.text);
   tr_file_close(&s->out);
   VG_(free)(s->items);
   s->items = NULL;
}

