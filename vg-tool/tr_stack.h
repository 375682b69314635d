/* tr_stack.h — the traced thread's stack as memory objects: a local variable, named and sized
   by the debug information (`sum`, `i`), where there is some; else the frame of a function
   (`stack@dot_product`). An object dies with its frame: when the stack pointer rises above it.
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

/* The stack pointer rose to `sp`: the objects below it die. Cheap when none does. */
void tr_stack_rises(Addr sp);

#endif
