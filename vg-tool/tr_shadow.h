/* tr_shadow.h — a sparse map from guest addresses to shadow leaves, for the tool's two shadow
   memories (task dependencies, tr_memory.c; the overlap study, tr_overlap.c). A 16-bit top
   table (address bits 47..32) of 16-bit middle tables (bits 31..16) of leaves, each covering
   64 KB of guest memory with whatever per-byte data its user keeps. Leaves are made zeroed on
   first use and never freed: nothing is allocated per access. */
#ifndef TR_SHADOW_H
#define TR_SHADOW_H

#include "pub_tool_basics.h"

#define TR_SHADOW_LEAF_BITS 16
#define TR_SHADOW_LEAF_SPAN (1u << TR_SHADOW_LEAF_BITS)
#define TR_SHADOW_MIDDLE_BITS 16
#define TR_SHADOW_ADDRESS_BITS (TR_SHADOW_LEAF_BITS + TR_SHADOW_MIDDLE_BITS + 16)

typedef struct {
   void* leaves[1u << TR_SHADOW_MIDDLE_BITS];
} TrShadowMiddle;

typedef struct {
   const HChar* name;            /* allocation cost centre */
   SizeT leaf_size;              /* bytes of one leaf */
   TrShadowMiddle* top[1u << 16];
   Bool cached_valid;            /* the last leaf found, for runs of accesses to one leaf */
   Addr cached_base;
   void* cached;
} TrShadow;

#define TR_SHADOW_INIT(cost_centre, leaf_type) {.name = (cost_centre), .leaf_size = sizeof(leaf_type)}

/* The leaf holding `a`, made if `make` (else NULL when there is none yet); NULL for addresses
   beyond the 48-bit user space. */
void* tr_shadow_leaf(TrShadow* shadow, Addr a, Bool make);

/* The leaf holding `a`, or NULL: two loads, for the helpers' fast paths (no cache to thrash
   when a loop walks two arrays in different leaves). */
static inline void* tr_shadow_find(const TrShadow* shadow, Addr a)
{
   const TrShadowMiddle* m;
   if (a >> TR_SHADOW_ADDRESS_BITS) return NULL;
   m = shadow->top[a >> (TR_SHADOW_LEAF_BITS + TR_SHADOW_MIDDLE_BITS)];
   return m ? m->leaves[(a >> TR_SHADOW_LEAF_BITS) & ((1u << TR_SHADOW_MIDDLE_BITS) - 1)] : NULL;
}

/* The offset of `a` in its leaf, and how many of `n` bytes from `a` stay in that leaf. */
static inline UInt tr_shadow_offset(Addr a) { return (UInt)(a & (TR_SHADOW_LEAF_SPAN - 1)); }
static inline UInt tr_shadow_run(Addr a, SizeT n)
{
   UInt left = TR_SHADOW_LEAF_SPAN - tr_shadow_offset(a);
   return n < left ? (UInt)n : left;
}

#endif
