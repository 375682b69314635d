/* tr_owners.h — who owns each byte of memory, for task dependencies (tr_memory.c decides what
   accesses do with it): the task instance that wrote it last, and the ones that read it since.

   Kept in leaves of tr_shadow.h, each covering 64 KB of memory in 8-byte granules. A granule
   whose bytes share one state holds that state; one whose bytes differ is split: it names a
   detail, the state of each of its bytes, which is given back when they agree again. Memory is
   mostly used by whole granules (doubles, pointers, an instance's block of an array), so the
   shadow takes a byte per byte of memory, not eight, and a task's first touch of its data
   misses the cache an eighth as often. */
#ifndef TR_OWNERS_H
#define TR_OWNERS_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "tr_shadow.h"

#define TR_GRANULE 8

/* The state of a byte, or of every byte of a granule. */
typedef struct {
   UInt writer;   /* TR_SPLIT: the granule's bytes differ, `readers` names their detail;
                     or TR_REDUCED */
   UInt readers;  /* for tr_memory.c: an instance, or a list of them */
} TrOwners;

#define TR_SPLIT 0xFFFFFFFFu  /* never an instance id */
/* The writer of bytes updated while disabled (a reduction) since they were last written: no
   instance, so that the next access of every instance to them comes to the helpers, which ask
   tr_reduced.c whom it depends on (the updaters, and whoever wrote or read the bytes before). */
#define TR_REDUCED 0xFFFFFFFEu
/* In the name of a detail: never an instance id either, so that readers equal to an instance
   say the granule is uniform. */
#define TR_DETAIL_BIT 0x80000000u

typedef struct {
   TrOwners granule[TR_SHADOW_LEAF_SPAN / TR_GRANULE];
} TrOwnersLeaf;

typedef struct {
   TrOwners byte[TR_GRANULE];
} TrOwnersDetail;

extern TrShadow tr_owners;

/* The leaf holding `a`, made if `make` (else NULL when there is none yet). */
TrOwnersLeaf* tr_owners_leaf(Addr a, Bool make);

/* Details live in chunks that never move. */
#define TR_DETAIL_CHUNK_BITS 12
extern TrOwnersDetail** tr_owners_details;

static inline TrOwnersDetail* tr_owners_detail(UInt name)
{
   UInt id = name & ~TR_DETAIL_BIT;
   return &tr_owners_details[id >> TR_DETAIL_CHUNK_BITS][id & ((1u << TR_DETAIL_CHUNK_BITS) - 1)];
}

/* The state of byte `at` of `leaf`, and how many of the `n` bytes from it share it: the rest
   of its granule when that is uniform, else the byte alone. */
static inline TrOwners* tr_owners_piece(const TrOwnersLeaf* leaf, UInt at, UInt n, UInt* length)
{
   TrOwners* g = (TrOwners*)&leaf->granule[at / TR_GRANULE];
   UInt left = TR_GRANULE - at % TR_GRANULE;
   if (g->writer != TR_SPLIT) {
      *length = n < left ? n : left;
      return g;
   }
   *length = 1;
   return &tr_owners_detail(g->readers)->byte[at % TR_GRANULE];
}

/* Gives uniform granule `g` a detail, each byte in the granule's state. */
TrOwnersDetail* tr_owners_split(TrOwners* g);
/* Split granule `g` made uniform again if its bytes agree, after an access to its bytes
   [first, end). */
void tr_owners_join(TrOwners* g, UInt first, UInt end);
/* Bytes [at, at+n) of `leaf` in state `value`. */
void tr_owners_assign(TrOwnersLeaf* leaf, UInt at, UInt n, TrOwners value);

/* For the instrumented code: the state of the granule holding `addr` (an I64, the writer in
   its low half; 0 when there is no leaf there yet). */
IRExpr* tr_owners_granule_ir(IRSB* sb, IRExpr* addr);

#endif
