/* tr_instrument.h — the tool's instrumentation of each superblock. */
#ifndef TR_INSTRUMENT_H
#define TR_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

IRSB* tr_instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout* layout,
                    const VexGuestExtents* vge, const VexArchInfo* archinfo_host,
                    IRType gWordTy, IRType hWordTy);

/* For the inline checks: a new temporary of type `type` holding `a` `operation` `b` (the
   instrumented code is flat IR). */
IRExpr* tr_ir_op(IRSB* sb, IRType type, IROp operation, IRExpr* a, IRExpr* b);

#endif
