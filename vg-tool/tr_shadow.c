/* tr_shadow.c — the sparse address map of the shadow memories. */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"

#include "tr_shadow.h"

void* tr_shadow_leaf(TrShadow* shadow, Addr a, Bool make)
{
   Addr base = a >> TR_SHADOW_LEAF_BITS;
   UWord hi, mid;
   TrShadowMiddle* m;
   if (shadow->cached_valid && base == shadow->cached_base) return shadow->cached;
   if (a >> TR_SHADOW_ADDRESS_BITS) return NULL;
   hi = a >> (TR_SHADOW_LEAF_BITS + TR_SHADOW_MIDDLE_BITS);
   mid = base & ((1u << TR_SHADOW_MIDDLE_BITS) - 1);
   m = shadow->top[hi];
   if (m == NULL) {
      if (!make) return NULL;
      m = shadow->top[hi] = VG_(calloc)(shadow->name, 1, sizeof(TrShadowMiddle));
   }
   if (m->leaves[mid] == NULL) {
      if (!make) return NULL;
      m->leaves[mid] = VG_(calloc)(shadow->name, 1, shadow->leaf_size);
   }
   shadow->cached_valid = True;
   shadow->cached_base = base;
   shadow->cached = m->leaves[mid];
   return shadow->cached;
}
