/* tr_opaque.h — which opaque MPI call (tr_mpi_opaque.def) a function of the MPI library is, for
   the wrappers that catch the opaque calls by name pattern (tr_mpiwrap.c). */
#ifndef TR_OPAQUE_H
#define TR_OPAQUE_H

#include "pub_tool_basics.h"

/* The index in tr_mpi_opaque.def of the call whose code is at `fn` (its MPI_ or PMPI_ name),
   or -1 when it is none. */
Word tr_opaque_index(Addr fn);

#endif
