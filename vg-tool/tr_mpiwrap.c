/* tr_mpiwrap.c — the MPI wrappers (tareador-mpi-wrappers-amd64-linux.so), which the tool's
   preload library (vgpreload_tareador-amd64-linux.so) needs, so that Valgrind loads them into
   every process it runs with --tool=tareador. They wrap every function of the MPI C API
   (Valgrind function wrapping: calls to the MPI library come here first).

   Fortran and C++ bindings end in these C functions (Open MPI's through the PMPI_ names, which
   are the same functions), so they are covered too. Only the outermost MPI call of a thread is
   traced: calls that MPI makes to itself, and those the wrappers make, pass through.

   The MPI calls the trace models go to a dialect module matching the MPI library in use (see
   tr_dialect.h); every other call is recorded as an opaque call. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "tr_clreq.h"
#include "tr_dialect.h"
#include "valgrind.h"

typedef unsigned long UW;

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
/* A wrapper's name: `kind` (_vgw, the behaviour class and priority, ZU or ZZ), the soname
   pattern and the function's (an indirection, for MPI_SONAME to expand). */
#define WRAPPER(kind, soname, function) VG_CONCAT4(kind, soname, _, function)

#define PARAMETERS                                                                          \
   UW a1, UW a2, UW a3, UW a4, UW a5, UW a6, UW a7, UW a8, UW a9, UW a10, UW a11, UW a12
#define ARGUMENTS a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12
/* Expands ARGUMENTS before CALL_FN_W_12W counts its arguments. */
#define CALL_WITH(result, fn, ...) CALL_FN_W_12W(result, fn, __VA_ARGS__)

/* The modelled calls' wrappers: behaviour class 3000 (the opaque calls' patterns catch their
   names too), priority 2. */
#define MODELLED_WRAPPER(name) WRAPPER(_vgw30002ZU_, MPI_SONAME, MPI_##name)
#define X(name, arguments, ...)                                                             \
   UW MODELLED_WRAPPER(name)(PARAMETERS);                                                   \
   UW MODELLED_WRAPPER(name)(PARAMETERS)                                                    \
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

/* ---- Opaque calls ------------------------------------------------------------------------ */

/* The opaque calls are wrapped by name patterns (tr_mpi_opaque_groups.def: MPI_Se*, ...), not
   one wrapper each: valgrind matches every pattern of an object against every symbol of the
   MPI library at start-up, and ~500 patterns cost a rank ~0.05 s. The wrapper asks the tool
   which call it wraps (its index in tr_mpi_opaque.def, from the name at its address: the tool's
   work, not counted in the rank's bursts); what a pattern catches that is no opaque call (the
   modelled calls have wrappers of their own, preferred by priority; the handle conversions)
   passes unrecorded. */
static const char* const opaque_names[] = {
#define X(call) "MPI_" #call,
#include "tr_mpi_opaque.def"
#undef X
};

static UW opaque_call(OrigFn fn, PARAMETERS)
{
   UW result;
   long call = depth > 0 ? -1 : (long)VALGRIND_DO_CLIENT_REQUEST_EXPR(-1, TR_REQ_OPAQUE_CALL,
                                                                      fn.nraddr, 0, 0, 0, 0);
   if (call < 0 || call >= (long)(sizeof opaque_names / sizeof opaque_names[0])) {
      CALL_WITH(result, fn, ARGUMENTS);
      return result;
   }
   depth++;
   VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_ENTER, 0, 0, 0, 0, 0);
   CALL_WITH(result, fn, ARGUMENTS);
   if (--depth == 0) {
      TrEvent event = {.kind = TR_EV_CALL, .name = opaque_names[call]};
      VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_EXIT, &event, 1, 0, 0, 0);
   }
   return result;
}

/* A wrapper of the calls whose names match MPI_ and `pattern` (Z-encoded: MPIZu is MPI_, Za
   any characters), at a lower priority (the last digit of 30001) than the modelled calls'. */
#define G(pattern)                                                                          \
   UW WRAPPER(_vgw30001ZZ_, MPI_SONAME, MPIZu##pattern)(PARAMETERS);                        \
   UW WRAPPER(_vgw30001ZZ_, MPI_SONAME, MPIZu##pattern)(PARAMETERS)                         \
   {                                                                                        \
      OrigFn fn;                                                                            \
      VALGRIND_GET_ORIG_FN(fn);                                                             \
      return opaque_call(fn, ARGUMENTS);                                                    \
   }
#include "tr_mpi_opaque_groups.def"
#undef G
