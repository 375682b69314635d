/* tr_tasks.h — the task instances of the traced run (tareador_start_task / _end_task): the stack
   of the open ones, the records of each (bursts, MPI calls, the instances it creates), the
   dependencies the shadow memory finds and the objects each uses; and the `tasks` stream of the
   trace set (docs/trace-format.md), one section per instance, written when the instance ends. */
#ifndef TR_TASKS_H
#define TR_TASKS_H

#include "pub_tool_basics.h"

#include "tr_clreq.h"

typedef enum { TR_DEP_RAW = 1, TR_DEP_WAR = 2, TR_DEP_WAW = 4 } TrDepKind;

/* The instance running now (0: tasks are not traced). */
extern UInt tr_task_current;
/* For each instance id: 1 while it is open (running, or waiting for an instance it created to
   end). A dependency on an open instance is implied by creation order and not recorded. */
extern UChar* tr_task_open_flags;
static inline Bool tr_task_is_open(UInt id) { return tr_task_open_flags[id] != 0; }
/* The stack pointer when the running instance started: the frames below are its own. */
extern Addr tr_task_stack_top;
/* The part of them no instance it created can have written: below the lowest stack pointer it
   created one at (a child writes the locals of the function that created it, which the
   creator then reads: a dependency). At most tr_task_stack_top. */
extern Addr tr_task_private_top;
/* The traced thread's stack rose to `sp`: the frames below, where the running instance created
   instances, are gone; the live ones above (the callers of the function that created them,
   whose locals the instances may have written through pointers) it still reads children's
   results from. */
void tr_tasks_stack_rose(Addr sp);

/* Starts tracing tasks in thread `tid` (the rank's trace is open): the main task (instance 1)
   begins, and the shadow memory finds the dependencies of `dep_kinds` (TrDepKind bits). */
void tr_tasks_begin(ThreadId tid, UInt dep_kinds);
Bool tr_tasks_active(void);
/* The type (name) of the running instance, or NULL when tasks are not traced. */
const HChar* tr_tasks_current_type(void);

/* tareador_start_task / tareador_end_task. */
void tr_tasks_start(const HChar* name);
void tr_tasks_end(const HChar* name);

/* An MPI call: the instructions before it go to the running instance, the call's own are left
   out, and its records (and the buffers it reads and writes) belong to the running instance. */
void tr_tasks_mpi_enter(void);
void tr_tasks_mpi_exit(const TrEvent* events, Int n);

/* From the shadow memory: the running instance depends on `from` through `bytes` bytes of
   `object`; it read or wrote bytes of `object` for the first time, in an access of [a, a+n)
   (`disabled`: while the object was disabled). */
void tr_tasks_depends(UInt from, TrDepKind kind, UInt object, ULong bytes);
void tr_tasks_uses(UInt object, Addr a, SizeT n, ULong read, ULong written, Bool disabled);
/* Heap block `object`, allocated by the open instance `owner`, is freed inside it (by it or by
   an instance it created): its uses say so even when it never touched the block itself. */
void tr_tasks_temporary(UInt owner, UInt object);
/* The running instance would depend on `from` through the runtime libraries' own state only:
   counted, and left out. */
void tr_tasks_runtime_dependency(UInt from);

/* tareador_disable_object / tareador_enable_object on the object holding `a`. */
void tr_tasks_disable_object(Addr a, Bool disable);

/* Ends the open instances (the main task last) and writes what is left: at tareador_OFF, at
   MPI_Finalize or at the end of the run (`complete` False: the stream stays truncated). */
void tr_tasks_finish(Bool complete);

#endif
