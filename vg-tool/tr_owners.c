/* tr_owners.c — who owns each byte of memory, in granules split only where bytes differ. */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"

#include "tr_owners.h"

TrShadow tr_owners = TR_SHADOW_INIT("tareador.owners", TrOwnersLeaf);

TrOwnersLeaf* tr_owners_leaf(Addr a, Bool make)
{
   TrOwnersLeaf* leaf = tr_shadow_find(&tr_owners, a);
   return leaf || !make ? leaf : tr_shadow_leaf(&tr_owners, a, True);
}

/* ---- Split granules ------------------------------------------------------------------------ */

#define DETAIL_CHUNK (1u << TR_DETAIL_CHUNK_BITS)

TrOwnersDetail** tr_owners_details;
static UInt n_chunks, max_chunks;
static UInt n_details = 1;  /* detail 0 unused: the end of the free list */
static UInt free_details;   /* listed through their first byte's readers */

TrOwnersDetail* tr_owners_split(TrOwners* g)
{
   UInt id, k;
   TrOwnersDetail* d;
   if (free_details) {
      id = free_details;
      free_details = tr_owners_detail(id)->byte[0].readers;
   } else {
      if ((n_details >> TR_DETAIL_CHUNK_BITS) == n_chunks) {
         if (n_chunks == max_chunks) {
            max_chunks = max_chunks ? 2 * max_chunks : 16;
            tr_owners_details = VG_(realloc)("tareador.owners.details", tr_owners_details,
                                             max_chunks * sizeof(TrOwnersDetail*));
         }
         tr_owners_details[n_chunks++] =
            VG_(malloc)("tareador.owners.details", DETAIL_CHUNK * sizeof(TrOwnersDetail));
      }
      id = n_details++;
   }
   d = tr_owners_detail(id);
   for (k = 0; k < TR_GRANULE; k++) d->byte[k] = *g;
   g->writer = TR_SPLIT;
   g->readers = id;
   return d;
}

/* Granule `g` in state `value` for all its bytes. */
static void make_uniform(TrOwners* g, TrOwners value)
{
   if (g->writer == TR_SPLIT) {
      tr_owners_detail(g->readers)->byte[0].readers = free_details;
      free_details = g->readers;
   }
   *g = value;
}

/* Tried when the access reaches an end of the granule: a run of accesses through it, or a half
   of it, is then complete. */
void tr_owners_join(TrOwners* g, UInt first, UInt end)
{
   const TrOwnersDetail* d = tr_owners_detail(g->readers);
   UInt k;
   if (first > 0 && end < TR_GRANULE) return;
   for (k = 1; k < TR_GRANULE; k++)
      if (d->byte[k].writer != d->byte[0].writer || d->byte[k].readers != d->byte[0].readers)
         return;
   make_uniform(g, d->byte[0]);
}

void tr_owners_assign(TrOwnersLeaf* leaf, UInt at, UInt n, TrOwners value)
{
   while (n > 0) {
      TrOwners* g = &leaf->granule[at / TR_GRANULE];
      UInt k = at % TR_GRANULE, length = TR_GRANULE - k, j;
      if (length > n) length = n;
      if (length == TR_GRANULE) {
         make_uniform(g, value);
      } else if (g->writer == TR_SPLIT || g->writer != value.writer ||
                 g->readers != value.readers) {
         TrOwnersDetail* d =
            g->writer == TR_SPLIT ? tr_owners_detail(g->readers) : tr_owners_split(g);
         for (j = k; j < k + length; j++) d->byte[j] = value;
         tr_owners_join(g, k, k + length);
      }
      at += length;
      n -= length;
   }
}
