/* tr_stack.h — the traced thread's stack as memory objects: a local variable, named and sized
   by the debug information (`sum`, `i`), where there is some; memory the program allocates on
   it (`alloca@dot.c:12`); else the frame of a function (`stack@dot_product`). An object dies with its frame: when the stack pointer rises above it.
   Without debug information a variable given to tareador_disable_object is taken to be
   TR_STACK_DEFAULT_EXTENT bytes from the address passed (a double, a long, a pointer). */
#ifndef TR_STACK_H
#define TR_STACK_H

#include "pub_tool_basics.h"

#define TR_STACK_DEFAULT_EXTENT 8

void tr_stack_init(void);

/* The object holding stack address `a` of thread `tid` (made on first use). */
UInt tr_stack_object_at(ThreadId tid, Addr a);
/* The variable holding `a` (for tareador_disable_object): the debug information's, else one of
   TR_STACK_DEFAULT_EXTENT bytes from `a`. */
UInt tr_stack_variable_at(ThreadId tid, Addr a);

/* The amd64 ABI's red zone: a leaf function's locals below its stack pointer. */
#define TR_RED_ZONE 128

/* The stack pointer rose from `old_sp` to `new_sp` (`returned`: by a return): what it held from
   *low up to *dead is dead. A return ends its function and the red zone it used; another rise
   (a pop, a frame's release) may leave a leaf function the red zone below its new pointer. */
static inline void tr_stack_dead_range(Addr old_sp, Addr new_sp, Bool returned, Addr* low,
                                       Addr* dead)
{
   *low = old_sp - TR_RED_ZONE;
   *dead = returned ? new_sp : new_sp - TR_RED_ZONE;
}

/* The stack pointer rose to `sp`: the objects below it die. Cheap when none does. */
void tr_stack_rises(Addr sp);

/* Thread `tid` allocated [start, end) on its stack, at `ip` (alloca, a variable-length array:
   memory the debug information does not describe, which is no compiler slot): an object of its
   own, named alloca@FILE:LINE, if the program's code made it. `traced`: the thread's tasks are
   traced; else the allocation waits for tr_stack_traced. */
void tr_stack_allocated(ThreadId tid, Addr start, Addr end, Addr ip, Bool traced);
/* Tasks of thread `tid` are traced from now on, its stack pointer at `sp`: the allocations it
   made before that are still alive become objects. */
void tr_stack_traced(ThreadId tid, Addr sp);

#endif
