/* tr_mpiwrap.c — the wrappers of the MPI calls the trace models
   (tareador-mpi-wrappers-amd64-linux.so), which the tool's preload library
   (vgpreload_tareador-amd64-linux.so) needs, so that Valgrind loads them into every process it
   runs with --tool=tareador. Each is a Valgrind function wrapper of the MPI library's function:
   calls of it, under whichever name (Open MPI's Fortran and C++ bindings call the PMPI_ names,
   the same functions), come here first. The other MPI calls are recorded as opaque calls by the
   preload library (tr_mpiopaque.c), which shares the depth below. Only the outermost MPI call of
   a thread is traced: calls that MPI makes to itself, and those the wrappers make, pass through.

   The calls go to a dialect module matching the MPI library in use (see tr_dialect.h). */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "tr_clreq.h"
#include "tr_dialect.h"
#include "tr_mpiwrap.h"
#include "valgrind.h"

static __thread int depth; /* MPI calls under way on this thread */
static const TrDialect* dialect;
static int dialect_tried;

/* The dialect module beside this library: tareador-mpi-FLAVOR-amd64-linux.so, FLAVOR from the
   file name of the MPI library that holds `fn`. */
static const TrDialect* dialect_for(OrigFn fn)
{
   Dl_info self, mpi;
   char path[4096];
   const char* flavor;
   void* module;
   if (dialect_tried) return dialect;
   dialect_tried = 1;
   if (!dladdr((void*)&dialect_for, &self) || !dladdr((void*)fn.nraddr, &mpi)) return NULL;
   flavor = strstr(mpi.dli_fname, "mpich") ? "mpich" : "openmpi";
   snprintf(path, sizeof path, "%.*s/tareador-mpi-%s-amd64-linux.so",
            (int)(strrchr(self.dli_fname, '/') - self.dli_fname), self.dli_fname, flavor);
   module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
   if (module) dialect = (const TrDialect*)dlsym(module, TR_DIALECT_SYMBOL);
   if (!dialect)
      fprintf(stderr, "tareador: cannot load %s (%s): MPI calls are not traced\n", path,
              module ? "no dialect in it" : dlerror());
   return dialect;
}

/* libmpi*.so*: Open MPI's libmpi.so.40 and MPICH's libmpich.so.12. */
#define MPI_SONAME libmpiZaZdsoZa

/* Expands ARGUMENTS before CALL_FN_W_12W counts its arguments. */
#define CALL_WITH(result, fn, ...) CALL_FN_W_12W(result, fn, __VA_ARGS__)

#define X(name, arguments, ...)                                                             \
   UW I_WRAP_SONAME_FNNAME_ZU(MPI_SONAME, MPI_##name)(PARAMETERS);                          \
   UW I_WRAP_SONAME_FNNAME_ZU(MPI_SONAME, MPI_##name)(PARAMETERS)                           \
   {                                                                                        \
      OrigFn fn;                                                                            \
      UW result;                                                                            \
      const TrDialect* d;                                                                   \
      VALGRIND_GET_ORIG_FN(fn);                                                             \
      if (depth > 0 || !(d = dialect_for(fn))) {                                            \
         CALL_WITH(result, fn, ARGUMENTS);                                              \
         return result;                                                                     \
      }                                                                                     \
      {                                                                                     \
         const UW args[TR_MAX_ARGS] = {ARGUMENTS};                                          \
         depth++;                                                                           \
         result = d->call(TR_CALL_##name, fn, args);                                        \
         depth--;                                                                           \
      }                                                                                     \
      return result;                                                                        \
   }
#include "tr_mpi_modelled.def"
#undef X

void tr_mpi_call_begins(void)
{
   if (depth++ == 0) VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_ENTER, 0, 0, 0, 0, 0);
}

void tr_mpi_call_ends(const char* name)
{
   if (--depth == 0) {
      TrEvent call = {.kind = TR_EV_CALL, .name = name};
      VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_EXIT, &call, 1, 0, 0, 0);
   }
}
