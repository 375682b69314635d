/* tr_potential.h — --potential-tasks=functions: the call tree of an unannotated sequential run,
   every call of a function of the program (and every annotated task region) a node, written as
   the `potential.N.txt` file of the trace set (docs/trace-format.md, "Potential tasks"). A node's
   own work comes in segments, cut where its children are called: each segment with its
   instructions and, as address intervals, the bytes it read before writing them and the bytes it
   wrote. From that, the dependencies of any coarser task decomposition are unions over subtrees
   (search/, tareador-search). */
#ifndef TR_POTENTIAL_H
#define TR_POTENTIAL_H

#include "pub_tool_basics.h"

/* From the options: whether the mode is on, how many calls of one function become nodes (later
   ones are part of their caller's work), how many intervals one segment's read or written set
   holds before it is coarsened (nearby intervals merged) and after how many instructions a
   segment ends even without a call. */
void tr_potential_configure(Bool enabled, UInt max_calls, UInt max_intervals, ULong segment_span);
Bool tr_potential_enabled(void);

/* What tr_main.c does when the program's main is called (open the trace set) and when it
   returns (close it). */
void tr_potential_set_hooks(void (*begins)(ThreadId tid), void (*ends)(void));

/* The instrumented code calls this at the end of a superblock that calls `target`, with the
   stack pointer after the return address was pushed. */
VG_REGPARM(2) void tr_potential_call(Addr target, Addr sp);
/* From the shadow memory's hooks: the traced thread's stack pointer rose to `sp` (frames above
   it returned), and an access of `n` bytes at `a`. */
void tr_potential_stack_rises(Addr sp);
void tr_potential_access(Addr a, SizeT n, Bool write);

/* tareador_start_task / tareador_end_task: an annotated region is a node too. */
void tr_potential_region_start(ThreadId tid, const HChar* name);
void tr_potential_region_end(void);

/* Ends the open nodes and the file (`complete` False: the run died, the file stays truncated). */
void tr_potential_finish(Bool complete);

#endif
