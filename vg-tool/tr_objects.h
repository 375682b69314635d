/* tr_objects.h — the pool of memory objects the dependencies are named after: heap blocks (the
   tool replaces malloc and friends to see them, named by their allocation site in the
   program's code), the program's globals and statics (named from debug info), local variables
   and frames of the stack (tr_stack.h), constants, the libraries' own memory, and other memory.
   Porting hints name the program's objects only; constants and libraries' memory are kinds of
   their own so that they can be left out and summed up. */
#ifndef TR_OBJECTS_H
#define TR_OBJECTS_H

#include "pub_tool_basics.h"

typedef enum {
   TR_OBJ_HEAP,
   TR_OBJ_GLOBAL,   /* a global or static variable of the program */
   TR_OBJ_STACK,    /* a local variable, or a function's frame */
   TR_OBJ_CONST,    /* read-only memory of a loaded file: constants, code */
   TR_OBJ_LIBRARY,  /* writable memory of a shared library or the dynamic linker */
   TR_OBJ_OTHER     /* anything else (memory the program maps itself, say) */
} TrObjectKind;

typedef struct {
   Addr start;
   SizeT size;
   TrObjectKind kind;
   UInt disabled;              /* tareador_disable_object calls not undone yet by an enable
                                  (they nest: a recursive task's): no dependencies through it */
   Bool dead;                  /* a freed heap block, a popped stack object */
   Bool runtime;               /* the language runtimes' own state (stdio buffers and locks,
                                  errno): calls into them are taken to be thread-safe, so it
                                  makes no dependency */
   Bool frame;                 /* stack: a function's frame, for the bytes no variable of
                                  it covers (variables inside it are objects of their own) */
   Bool temporary;             /* stack bytes of no variable, when the debug information
                                  describes the program's: the compiler's own slots (spills,
                                  saved registers), which carry no program data */
   Addr site, via;             /* heap: the allocating call in the program's code, and the
                                  function it called (an allocator, a library function) */
   Addr site_sp;               /* heap: the stack pointer of that call */
   Addr home;                  /* stack: the base of the frame of the function that declares
                                  it (its caller's stack pointer at the call), 0 if not known:
                                  tells a caller's variable from the task creator's own */
   UInt born_in;               /* heap: the task instance running when it was allocated (0:
                                  none) */
   Bool freed_inside;          /* heap: freed while that instance was open, by it or by an
                                  instance it created: a temporary of its own */
   Addr first_access;          /* other: the address that made it (names its loaded object) */
   HChar* name;                /* made on first use of tr_object_name */
} TrObject;

/* Registers the malloc replacement (from pre_clo_init). */
void tr_objects_pre_clo_init(void);
/* While MPI_Init runs, the blocks allocated are the MPI library's own (it hands none to the
   program, whose tasks seldom read them: an attribute's value, say, which then is unnamed
   memory): they are not objects, only the allocator's blocks. Following each of Open MPI's
   ~27,000 to its allocating call took a stack walk and line lookups, ~0.05 s a rank; keeping
   each in heap_blocks, an insertion and a removal in a tree, ~1.5% of a short rank. */
void tr_objects_mpi_allocates(Bool initialising);

/* A new object (for tr_stack.c), and the end of one. */
UInt tr_objects_new(TrObjectKind kind, Addr start, SizeT size);
void tr_objects_died(UInt id);

/* The objects tr_object_at found last and the addresses each answers for without a lookup
   while it lives (none for a frame, which holds variables, or unnamed memory, which may hold a
   global not met yet): runs of accesses to one object, or alternating between two (a copy). */
typedef struct {
   Addr start, end;
   UInt id;
} TrObjectCache;
#define TR_OBJECT_CACHED 2
extern TrObjectCache tr_object_cache[TR_OBJECT_CACHED];
UInt tr_object_lookup(ThreadId tid, Addr a);

/* The object holding address `a` accessed by thread `tid` (0 for none). */
static inline UInt tr_object_at(ThreadId tid, Addr a)
{
   UInt i;
   for (i = 0; i < TR_OBJECT_CACHED; i++)
      if (a >= tr_object_cache[i].start && a < tr_object_cache[i].end) return tr_object_cache[i].id;
   return tr_object_lookup(tid, a);
}
TrObject* tr_object(UInt id);
/* The object a program means by address `a` when it names one (tareador_disable_object): on
   the stack the variable there, never a whole frame. */
UInt tr_object_of_variable(ThreadId tid, Addr a);
/* Where instruction `ip` is, for a name: FILE:LINE, else its function (also for a library's
   code inlined into a function of the program), else its address. */
void tr_objects_site_name(Addr ip, HChar* out, SizeT size);
/* A short name: the variable's symbol, the allocation site (malloc@dot.c:20,
   vector<...>@main.cpp:41), stack@function, memory@0x...(file), ... */
const HChar* tr_object_name(UInt id);

/* What the allocator does to a heap block's bytes: a new block holds nothing yet; realloc
   copies (reads the old block, writes the new one); freeing is a write of the whole block (the
   last use of it: whoever used it comes first), after which it holds nothing. A block realloc
   moves a disabled block into is disabled too (it is the same program object). */
typedef enum {
   TR_BLOCK_NEW, TR_BLOCK_READ, TR_BLOCK_WRITTEN, TR_BLOCK_FREED, TR_BLOCK_DISABLED
} TrBlockEvent;
/* The heap blocks call this as their bytes are allocated, copied and freed. */
extern void (*tr_objects_on_block)(Addr start, SizeT size, TrBlockEvent event);

#endif
