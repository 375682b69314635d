/* tr_owners.c — who owns each byte of memory, in granules split only where bytes differ. */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"

#include "tr_instrument.h"
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
   g->readers = id | TR_DETAIL_BIT;
   return d;
}

/* Granule `g` in state `value` for all its bytes. */
static void make_uniform(TrOwners* g, TrOwners value)
{
   if (g->writer == TR_SPLIT) {
      tr_owners_detail(g->readers)->byte[0].readers = free_details;
      free_details = g->readers & ~TR_DETAIL_BIT;
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

/* ---- The instrumented code's lookup ------------------------------------------------------- */

/* Where no table is yet, the lookup reads these (zeros: no leaf, no owners): loads without
   branches. */
static TrShadowMiddle no_middle;
static TrOwnersLeaf no_leaf;

/* `table` itself, or `none` where it is NULL. */
static IRExpr* or_none(IRSB* sb, IRExpr* table, const void* none)
{
   IRTemp t = newIRTemp(sb->tyenv, Ity_I64);
   IRExpr* missing = tr_ir_op(sb, Ity_I1, Iop_CmpEQ64, table, mkIRExpr_HWord(0));
   addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_ITE(missing, mkIRExpr_HWord((HWord)none), table)));
   return IRExpr_RdTmp(t);
}

/* The 8 bytes at `table` + `index` * 8 (a slot of a table, or a granule's owners). */
static IRExpr* slot(IRSB* sb, IRExpr* table, IRExpr* index)
{
   IRTemp t = newIRTemp(sb->tyenv, Ity_I64);
   IRExpr* offset = tr_ir_op(sb, Ity_I64, Iop_Shl64, index, IRExpr_Const(IRConst_U8(3)));
   IRExpr* address = tr_ir_op(sb, Ity_I64, Iop_Add64, table, offset);
   addStmtToIRSB(sb, IRStmt_WrTmp(t, IRExpr_Load(Iend_LE, Ity_I64, address)));
   return IRExpr_RdTmp(t);
}

/* Bits [low, low + count) of `addr`. */
static IRExpr* bits(IRSB* sb, IRExpr* addr, UInt low, UInt count)
{
   IRExpr* shifted = tr_ir_op(sb, Ity_I64, Iop_Shr64, addr, IRExpr_Const(IRConst_U8((UChar)low)));
   return tr_ir_op(sb, Ity_I64, Iop_And64, shifted, mkIRExpr_HWord(((HWord)1 << count) - 1));
}

/* A granule's owners are 8 bytes, at 8 times its index in the leaf. */
STATIC_ASSERT(TR_GRANULE == 1 << 3 && sizeof(TrOwners) == 8);

/* tr_shadow_find, then the granule. An address beyond the 48 bits of user space (whose access
   faults) reads some granule: what the check then says makes no difference, the helper would
   find no leaf and do nothing. */
IRExpr* tr_owners_granule_ir(IRSB* sb, IRExpr* addr)
{
   IRExpr* top = mkIRExpr_HWord((HWord)&tr_owners.top[0]);
   IRExpr* middle = slot(sb, top, bits(sb, addr, TR_SHADOW_LEAF_BITS + TR_SHADOW_MIDDLE_BITS, 16));
   IRExpr* leaf = slot(sb, or_none(sb, middle, &no_middle),
                       bits(sb, addr, TR_SHADOW_LEAF_BITS, TR_SHADOW_MIDDLE_BITS));
   return slot(sb, or_none(sb, leaf, &no_leaf),
               bits(sb, addr, 3, TR_SHADOW_LEAF_BITS - 3));
}
