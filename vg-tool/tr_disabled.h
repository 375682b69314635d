/* tr_disabled.h — the objects tareador_disable_object made dependency-free now: address ranges
   [start, end), sorted by start. Every access of a task asks whether it touches one, so the
   question is first put to the bounds of them all (one comparison pair, inline): a program
   that disables one accumulator keeps the helpers' fast paths for every other access, and one
   that disables thousands of blocks finds the one an access touches by a binary search. */
#ifndef TR_DISABLED_H
#define TR_DISABLED_H

#include "pub_tool_basics.h"

typedef struct {
   Addr start, end;
} TrDisabled;

/* The lowest start and the highest end of the ranges; low > high when there are none. */
extern Addr tr_disabled_low, tr_disabled_high;

static inline Bool tr_disabled_near(Addr a, SizeT n)
{
   return a < tr_disabled_high && a + n > tr_disabled_low;
}

void tr_disabled_add(Addr start, SizeT size);
/* Removes the range that starts at `start`, if there is one. */
void tr_disabled_remove(Addr start);
/* Removes the ranges that start in [low, high) (popped stack variables). */
void tr_disabled_remove_from(Addr low, Addr high);
/* Of the ranges [a, a+n) overlaps, the one that starts first; NULL: none. */
const TrDisabled* tr_disabled_in(Addr a, SizeT n);
/* The start of the i-th range, or 0 past the last. */
Addr tr_disabled_start(UInt i);

#endif
