/* tr_shadow.c — the sparse address map of the shadow memories. */

#include "pub_tool_basics.h"
#include "pub_tool_mallocfree.h"

#include "tr_shadow.h"

#define MIDDLE_BITS 16
#define ADDRESS_BITS (TR_SHADOW_LEAF_BITS + MIDDLE_BITS + 16)

struct TrShadowMiddle {
   void* leaves[1u << MIDDLE_BITS];
};

void* tr_shadow_leaf(TrShadow* shadow, Addr a, Bool make)
{
   Addr base = a >> TR_SHADOW_LEAF_BITS;
   UWord hi, mid;
   TrShadowMiddle* m;
   if (shadow->cached_valid && base == shadow->cached_base) return shadow->cached;
   if (a >> ADDRESS_BITS) return NULL;
   hi = a >> (TR_SHADOW_LEAF_BITS + MIDDLE_BITS);
   mid = base & ((1u << MIDDLE_BITS) - 1);
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
