/* tr_opaque.c — the opaque MPI calls by address: asked once per function (the answers are kept
   by address), answered from the name the debug information gives its address. The tool does
   this work so that it does not count in the rank's bursts, as it would in the wrapper. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"

#include "tr_opaque.h"

static const HChar* const kNames[] = {
#define X(call) "MPI_" #call,
#include "tr_mpi_opaque.def"
#undef X
};
#define N_NAMES (sizeof kNames / sizeof kNames[0])

static Word look_up(Addr fn)
{
   const HChar* name;
   UInt i;
   if (!VG_(get_fnname)(VG_(current_DiEpoch)(), fn, &name)) return -1;
   if (name[0] == 'P') name++;  /* the PMPI_ name of the same code */
   for (i = 0; i < N_NAMES; i++)
      if (VG_(strcmp)(kNames[i], name) == 0) return (Word)i;
   return -1;
}

#define SLOTS 1024

Word tr_opaque_index(Addr fn)
{
   static struct {
      Addr fn;
      Word index;
   } known[SLOTS];
   UInt i = (UInt)(fn >> 4) % SLOTS, probes;
   for (probes = 0; probes < SLOTS && known[i].fn != 0 && known[i].fn != fn; probes++)
      i = (i + 1) % SLOTS;
   if (probes == SLOTS) return look_up(fn);
   if (known[i].fn != fn) {
      known[i].fn = fn;
      known[i].index = look_up(fn);
   }
   return known[i].index;
}
