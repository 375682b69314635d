/* tr_spans.h — sets of address intervals [lo, hi), kept sorted, disjoint and not touching (two
   that touch are one): the bytes a segment of a potential task read and wrote. */
#ifndef TR_SPANS_H
#define TR_SPANS_H

#include "pub_tool_basics.h"

typedef struct {
   Addr lo, hi;
} TrSpan;

typedef struct {
   TrSpan* s;
   UInt n, max;
   UInt hint;  /* where the last addition went: accesses run through memory in order */
} TrSpans;

void tr_spans_add(TrSpans* set, Addr lo, Addr hi);
/* Adds to `set` the parts of [lo, hi) that `except` does not hold. */
void tr_spans_add_outside(TrSpans* set, const TrSpans* except, Addr lo, Addr hi);
/* Merges neighbours, the closest first, until `set` holds at most `max` / 2 intervals (the bytes
   between them count as part of them). False if it had at most `max`: nothing done. */
Bool tr_spans_coarsen(TrSpans* set, UInt max);
void tr_spans_clear(TrSpans* set);
void tr_spans_free(TrSpans* set);

#endif
