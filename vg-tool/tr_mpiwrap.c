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

void tr_mpi_call_begins(const char* name)
{
   if (depth++ == 0) VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_ENTER, name, 0, 0, 0, 0);
}

/* The modelled calls' names, for their large-count forms (MPI_Send_c). */
static const char* const modelled_names[] = {
#define X(name, ...) "MPI_" #name,
#include "tr_mpi_modelled.def"
#undef X
};

static int named(const char* name, const char* const* names, size_t n)
{
   size_t i;
   for (i = 0; i < n; i++)
      if (strcmp(name, names[i]) == 0) return 1;
   return 0;
}

static int ends_with(const char* name, const char* suffix)
{
   size_t n = strlen(name), k = strlen(suffix);
   return n >= k && strcmp(name + n - k, suffix) == 0;
}

/* What an opaque call that communicates is, in a warning: its communication is not in the
   trace. NULL: it does not communicate, or the trace models it elsewhere. */
static const char* unmodelled_communication(const char* name)
{
   static const char* const one_sided[] = {
      "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
      "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate"};
   static const char* const other[] = {"MPI_Isendrecv", "MPI_Isendrecv_replace"};
   char base[64];
   size_t n = strlen(name);
   if (ends_with(name, "_c") && n - 2 < sizeof base) { /* a large-count form: as its base */
      memcpy(base, name, n - 2);
      base[n - 2] = '\0';
      if (named(base, modelled_names, sizeof modelled_names / sizeof *modelled_names))
         return "the large-count form of a modelled call";
      name = base;
   }
   if (ends_with(name, "_init") && strcmp(name, "MPI_Session_init") != 0)
      return "a partitioned call";
   if (named(name, one_sided, sizeof one_sided / sizeof *one_sided))
      return "one-sided communication";
   if (strncmp(name, "MPI_Comm_spawn", 14) == 0)
      return "the start of other processes (which are not traced)";
   if (named(name, other, sizeof other / sizeof *other)) return "communication";
   return NULL;
}

void tr_mpi_call_ends(const char* name, int* seen)
{
   if (--depth == 0) {
      TrEvent call = {.kind = TR_EV_CALL, .name = name};
      VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_EXIT, &call, 1, 0, 0, 0);
      if (!*seen) {
         const char* what = unmodelled_communication(name);
         char text[256];
         *seen = 1;
         if (what) {
            snprintf(text, sizeof text,
                     "%s is %s, which the trace does not model: it is an opaque call, its "
                     "messages are not replayed", name, what);
            VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_WARN, text, 0, 0, 0, 0);
         }
      }
   }
}
