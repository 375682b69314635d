/* tr_objects.h — the pool of memory objects the dependencies are named after: heap blocks (the
   tool replaces malloc and friends to see them, with their allocation site), globals and
   statics (named from debug info), each thread's stack, and other memory. */
#ifndef TR_OBJECTS_H
#define TR_OBJECTS_H

#include "pub_tool_basics.h"

typedef enum { TR_OBJ_HEAP, TR_OBJ_GLOBAL, TR_OBJ_STACK, TR_OBJ_OTHER } TrObjectKind;

typedef struct {
   Addr start;
   SizeT size;
   TrObjectKind kind;
   Bool disabled;              /* tareador_disable_object: no dependencies through it */
   Bool freed;
   ULong serial;               /* heap: allocation number (1 = first) */
   Addr first_access;          /* other: the address that made it (names its loaded object) */
   struct _ExeContext* where;  /* heap: allocation site */
   HChar* name;                /* made on first use of tr_object_name */
   UInt last_reader, last_writer;  /* the last task instances that read / wrote it */
} TrObject;

/* Registers the malloc replacement (from pre_clo_init). */
void tr_objects_pre_clo_init(void);

/* The object holding address `a` accessed by thread `tid` (0 for none); cached, cheap for runs
   of accesses to one object. */
UInt tr_object_at(ThreadId tid, Addr a);
TrObject* tr_object(UInt id);
/* A short name: the global's symbol, heap#N@file:line (allocation site), stack, ... */
const HChar* tr_object_name(UInt id);

/* The heap blocks allocated and freed call this to forget what their bytes held. */
extern void (*tr_objects_on_block)(Addr start, SizeT size);

#endif
