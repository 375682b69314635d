/* tr_spans.c — sets of address intervals. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "tr_spans.h"

/* The first interval that ends at or after `a` (touching counts), or set->n. */
static UInt first_reaching(const TrSpans* set, Addr a)
{
   UInt lo = 0, hi = set->n;
   UInt h = set->hint;
   if (h < set->n && set->s[h].hi >= a && (h == 0 || set->s[h - 1].hi < a)) return h;
   while (lo < hi) {
      UInt mid = lo + (hi - lo) / 2;
      if (set->s[mid].hi < a) lo = mid + 1;
      else hi = mid;
   }
   return lo;
}

static void insert_at(TrSpans* set, UInt i, Addr lo, Addr hi)
{
   if (set->n == set->max) {
      set->max = set->max ? 2 * set->max : 8;
      set->s = VG_(realloc)("tareador.spans", set->s, set->max * sizeof(TrSpan));
   }
   if (i < set->n) VG_(memmove)(&set->s[i + 1], &set->s[i], (set->n - i) * sizeof(TrSpan));
   set->s[i].lo = lo;
   set->s[i].hi = hi;
   set->n++;
}

void tr_spans_add(TrSpans* set, Addr lo, Addr hi)
{
   UInt i, j;
   if (lo >= hi) return;
   i = first_reaching(set, lo);
   set->hint = i;
   if (i == set->n || set->s[i].lo > hi) {
      insert_at(set, i, lo, hi);
      return;
   }
   if (lo < set->s[i].lo) set->s[i].lo = lo;
   if (hi <= set->s[i].hi) return;
   for (j = i; j + 1 < set->n && set->s[j + 1].lo <= hi; j++) {}
   set->s[i].hi = hi > set->s[j].hi ? hi : set->s[j].hi;
   if (j > i) {
      VG_(memmove)(&set->s[i + 1], &set->s[j + 1], (set->n - j - 1) * sizeof(TrSpan));
      set->n -= j - i;
   }
}

void tr_spans_add_outside(TrSpans* set, const TrSpans* except, Addr lo, Addr hi)
{
   UInt k;
   Addr at = lo;
   if (except->n == 0) {
      tr_spans_add(set, lo, hi);
      return;
   }
   for (k = first_reaching(except, lo + 1); k < except->n && except->s[k].lo < hi; k++) {
      if (except->s[k].lo > at) tr_spans_add(set, at, except->s[k].lo);
      if (except->s[k].hi > at) at = except->s[k].hi;
   }
   if (at < hi) tr_spans_add(set, at, hi);
}

Bool tr_spans_coarsen(TrSpans* set, UInt max)
{
   Addr gap = 8;
   if (set->n <= max) return False;
   while (set->n > max / 2) {
      UInt i, out = 0;
      for (i = 1; i < set->n; i++) {
         if (set->s[i].lo - set->s[out].hi <= gap) set->s[out].hi = set->s[i].hi;
         else set->s[++out] = set->s[i];
      }
      set->n = out + 1;
      gap *= 2;
   }
   set->hint = 0;
   return True;
}

void tr_spans_clear(TrSpans* set)
{
   set->n = 0;
   set->hint = 0;
}

void tr_spans_free(TrSpans* set)
{
   VG_(free)(set->s);
   set->s = NULL;
   set->n = set->max = set->hint = 0;
}
