/* tr_dialect.h — between the preload library's wrappers (which know no MPI headers) and the
   MPI-specific half, built once per MPI (Open MPI, MPICH) against that MPI's mpi.h: their
   handles, constants and status layouts differ, so one build cannot serve both. */
#ifndef TR_DIALECT_H
#define TR_DIALECT_H

#include "valgrind.h"

/* The MPI calls the trace models. */
typedef enum {
#define X(name, arguments, ...) TR_CALL_##name,
#include "tr_mpi_modelled.def"
#undef X
   TR_CALL_COUNT
} TrCall;

/* Every wrapper passes 12 words: the MPI C API has no call with more, and the callee ignores
   what it does not take. */
#define TR_MAX_ARGS 12

typedef struct {
   /* Does what MPI call `call` does, with the original function `fn` and arguments `args`,
      and tells the tool. Returns the call's result. */
   unsigned long (*call)(TrCall call, OrigFn fn, const unsigned long* args);
} TrDialect;

/* The symbol a dialect module exports. */
#define TR_DIALECT_SYMBOL "tareador_mpi_dialect"

#endif
