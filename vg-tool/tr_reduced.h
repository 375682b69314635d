/* tr_reduced.h — the bytes of objects updated while disabled (a reduction, see
   tareador_disable_object) since they were last written otherwise, and the instances that
   updated them, for those that read or overwrite the bytes next. The shadow memory marks such
   bytes (TR_REDUCED, tr_owners.h) and tells what happens to them. */
#ifndef TR_REDUCED_H
#define TR_REDUCED_H

#include "pub_tool_basics.h"

/* Tasks are traced, seeking the dependencies of `dep_kinds` (TrDepKind bits). */
void tr_reduced_begin(UInt dep_kinds);
/* Bytes [a, a+n) of `object` were updated while disabled by instance `id` (`wrote`); or, handed
   over by the shadow memory when it marked them, instance `id` wrote (`wrote`) or read them
   before. */
void tr_reduced_from(UInt object, UInt id, Addr a, SizeT n, Bool wrote);
/* The running instance read (or overwrote: `overwritten`) [a, a+n) of `object`, bytes marked
   TR_REDUCED: it depends on their updaters (and on whoever wrote or read them before). */
void tr_reduced_accessed(UInt object, Addr a, SizeT n, Bool overwritten);

#endif
