/* tr_disabled.c — the disabled objects' ranges (tr_disabled.h). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "tr_disabled.h"

Addr tr_disabled_low = ~(Addr)0, tr_disabled_high = 0;

static TrDisabled* ranges;
static UInt n_ranges, max_ranges;
/* The longest range: a range that overlaps [a, a+n) starts after a - longest. */
static SizeT longest;

/* The first index whose range starts at or after `a`. */
static UInt first_from(Addr a)
{
   UInt lo = 0, hi = n_ranges;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (ranges[mid].start < a)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

static void bounds_changed(void)
{
   UInt i;
   tr_disabled_low = ~(Addr)0;
   tr_disabled_high = 0;
   longest = 0;
   for (i = 0; i < n_ranges; i++) {
      SizeT size = ranges[i].end - ranges[i].start;
      if (ranges[i].end > tr_disabled_high) tr_disabled_high = ranges[i].end;
      if (size > longest) longest = size;
   }
   if (n_ranges > 0) tr_disabled_low = ranges[0].start;
}

void tr_disabled_add(Addr start, SizeT size)
{
   UInt at;
   if (n_ranges == max_ranges) {
      max_ranges = max_ranges ? 2 * max_ranges : 8;
      ranges = VG_(realloc)("tareador.disabled", ranges, max_ranges * sizeof *ranges);
   }
   /* Programs disable their objects in the order of their addresses, mostly: an append. */
   at = n_ranges > 0 && ranges[n_ranges - 1].start > start ? first_from(start) : n_ranges;
   VG_(memmove)(&ranges[at + 1], &ranges[at], (n_ranges - at) * sizeof *ranges);
   ranges[at].start = start;
   ranges[at].end = start + size;
   n_ranges++;
   if (start < tr_disabled_low) tr_disabled_low = start;
   if (start + size > tr_disabled_high) tr_disabled_high = start + size;
   if (size > longest) longest = size;
}

/* Removes ranges [from, to) of the array. */
static void erase(UInt from, UInt to)
{
   if (from == to) return;
   VG_(memmove)(&ranges[from], &ranges[to], (n_ranges - to) * sizeof *ranges);
   n_ranges -= to - from;
   bounds_changed();
}

void tr_disabled_remove(Addr start)
{
   UInt at = first_from(start);
   if (at < n_ranges && ranges[at].start == start) erase(at, at + 1);
}

void tr_disabled_remove_from(Addr low, Addr high)
{
   if (n_ranges == 0 || low >= high || high <= tr_disabled_low) return;
   erase(first_from(low), first_from(high));
}

const TrDisabled* tr_disabled_in(Addr a, SizeT n)
{
   UInt i;
   if (!tr_disabled_near(a, n)) return NULL;
   for (i = first_from(a > longest ? a - longest : 0); i < n_ranges && ranges[i].start < a + n;
        i++)
      if (ranges[i].end > a) return &ranges[i];
   return NULL;
}

Addr tr_disabled_start(UInt i) { return i < n_ranges ? ranges[i].start : 0; }
