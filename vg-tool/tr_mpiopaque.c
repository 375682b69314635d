/* tr_mpiopaque.c — the MPI calls the trace does not model (tr_mpi_opaque.def), each recorded
   as an opaque call. Part of the preload library, which the dynamic linker searches before the
   MPI library: the program's calls of MPI_X, and the Fortran and C++ bindings' calls of MPI_X
   or PMPI_X, come here by plain symbol interposition. Valgrind's function wrappers
   (tr_mpiwrap.c) would do the same, but valgrind matches each wrapper against every symbol of
   the MPI library as it loads: ~530 of them were ~40% of the tool's start-up matching.

   Each calls the next definition of its name: the MPI library's, or a profiling library's in
   between. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr_mpiwrap.h"

typedef UW (*MpiFunction)(PARAMETERS);

typedef struct {
   const char* symbol;
   void* found;
} Lookup;

/* Whether `name` (a loaded object's path) is an MPI library: libmpi*, libmpich*. */
static int is_mpi_library(const char* name)
{
   const char* base = strrchr(name, '/');
   return strncmp(base ? base + 1 : name, "libmpi", 6) == 0;
}

static int find_in_mpi_library(struct dl_phdr_info* info, size_t size, void* data)
{
   Lookup* lookup = data;
   void* library;
   if (!info->dlpi_name || !is_mpi_library(info->dlpi_name)) return 0;
   library = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
   if (library) {
      lookup->found = dlsym(library, lookup->symbol);
      dlclose(library);
   }
   return lookup->found != NULL;
}

/* The function `symbol` names after this library. An MPI library loaded with RTLD_LOCAL (as a
   Python module's dependency, say) is not in the scope RTLD_NEXT searches: then its own. */
static MpiFunction next_definition(const char* symbol)
{
   Lookup lookup = {symbol, dlsym(RTLD_NEXT, symbol)};
   if (!lookup.found) dl_iterate_phdr(find_in_mpi_library, &lookup);
   if (!lookup.found) {
      fprintf(stderr, "tareador: %s is in no MPI library loaded\n", symbol);
      abort();
   }
   return (MpiFunction)lookup.found;
}

/* `next` is looked up inside the call: its instructions are the call's, not the program's. */
static UW opaque_call(MpiFunction* next, int* seen, const char* symbol, const char* name,
                      PARAMETERS)
{
   UW result;
   tr_mpi_call_begins(name);
   if (*next == NULL) *next = next_definition(symbol);
   result = (*next)(ARGUMENTS);
   tr_mpi_call_ends(name, seen);
   return result;
}

#define WRAPPER(symbol, call)                                                               \
   UW symbol(PARAMETERS);                                                                   \
   UW symbol(PARAMETERS)                                                                    \
   {                                                                                        \
      static MpiFunction next;                                                              \
      static int seen;                                                                      \
      return opaque_call(&next, &seen, #symbol, "MPI_" #call, ARGUMENTS);                   \
   }
#define X(call) WRAPPER(MPI_##call, call) WRAPPER(PMPI_##call, call)
#include "tr_mpi_opaque.def"
#undef X
