/* tr_clreq.h — the requests the client side (the MPI wrappers of the preload library, and
   tareador.h) makes to the tool, and the events it passes along. Shared by both sides, so it
   uses only C types that mean the same in the client and in the tool. */
#ifndef TR_CLREQ_H
#define TR_CLREQ_H

#include "valgrind.h"

typedef enum {
   /* The public API of tareador.h (tasks; handled from the task issue on). */
   TR_REQ_ON = VG_USERREQ_TOOL_BASE('T', 'R'),
   TR_REQ_OFF,
   TR_REQ_START_TASK,
   TR_REQ_END_TASK,
   TR_REQ_DISABLE_OBJECT,
   TR_REQ_ENABLE_OBJECT,

   /* The MPI wrappers. */
   TR_REQ_MPI_INIT = VG_USERREQ_TOOL_BASE('T', 'R') + 0x100, /* rank, size, dir buf, len */
   TR_REQ_MPI_ENTER,     /* an MPI call (its name) starts: the burst before it ends here */
   TR_REQ_MPI_EXIT,      /* it ends: events, count, name of the call */
   TR_REQ_MPI_FINALIZE,  /* the trace is complete */
   TR_REQ_MPI_ABORT,     /* errorcode: the trace ends here, truncated */
   TR_REQ_COMM_DEF,      /* id, size, world ranks (int*) */
   TR_REQ_WARN,          /* a warning for the rank manifest (const char*) */
   TR_REQ_MPI_INIT_BEGINS, /* MPI_Init (or _thread) starts: what it allocates is MPI's own */
   TR_REQ_MPI_SPAWNED      /* MPI_Init ended in a process MPI_Comm_spawn started: no trace */
} TrRequest;

/* What an MPI call did, as the trace records it. */
typedef enum {
   TR_EV_SEND,     /* peer, tag, comm, bytes, mode, immediate, request */
   TR_EV_RECV,     /* peer (-1: not known yet), tag, comm, bytes, immediate, request */
   TR_EV_WAIT,     /* request; joined: part of the previous wait (one MPI call); collective:
                      the request is a non-blocking collective's */
   TR_EV_RESOLVE,  /* request: the source, tag and bytes of an immediate receive, when it
                      completes (posted with an unknown source or tag, or more room than the
                      message took); peer TR_PEER_CANCELLED: one from an unknown source that
                      was cancelled, whose records go */
   TR_EV_COLL,     /* op (Dimemas id), comm, root (world rank or -1), bytes, bytes_recv;
                      immediate, request: a non-blocking one */
   TR_EV_CALL      /* an MPI call that is not modelled: name */
} TrEventKind;

typedef enum { TR_MODE_EAGER, TR_MODE_RDV, TR_MODE_SYNC, TR_MODE_BUF } TrSendMode;

/* The peer of a TR_EV_RESOLVE whose receive was cancelled (MPI_Cancel). */
#define TR_PEER_CANCELLED (-2)

/* Where the bytes of a message are, in the order MPI sends them: `length` bytes at `offset`
   from its buffer. */
typedef struct {
   long long offset, length;
} TrSegment;

typedef struct {
   int kind;
   int immediate;
   int joined;
   int collective;
   int mode;
   int peer, comm;
   long long tag;  /* MPI's are ints; the overlap streams' chunk tags need more (docs/tool.md) */
   int op, root;
   long long bytes, bytes_recv;
   long long request;
   const char* name;
   /* The memory the call reads (sends) and writes (receives), as if contiguous: `bytes` from
      `buffer`, `bytes_recv` (collectives) or `bytes` (receives) into `buffer_recv`. */
   const void* buffer;
   const void* buffer_recv;
   /* A send's or receive's buffer through a non-contiguous datatype: its `layout_n` segments
      (NULL: contiguous); valid during the request that passes the event. */
   const TrSegment* layout;
   int layout_n, layout_at;
   /* A send through a non-contiguous datatype: the unique 64-byte cache lines its data touches
      (the cache-aware cost model's U); 0 otherwise. */
   long long lines;
   /* A collective whose members send and receive blocks of their own sizes (Alltoallv,
      Allgatherv, and Gatherv and Scatterv at the root): 2 x the communicator's size segments,
      the block this rank sends to each member (offset in `buffer`, bytes), then the block it
      receives from each (in `buffer_recv`); NULL when every block is alike. Valid as `layout`. */
   const TrSegment* blocks;
   int blocks_n, blocks_at;
   /* The program's variable that holds a non-blocking call's request (`handle_bytes` at
      `handle`), in the call that starts it and in its wait; NULL otherwise. */
   const void* handle;
   int handle_bytes;
   /* The program's MPI_Status the call fills for this message (`status_bytes` at `status`);
      NULL when the program passed MPI_STATUS(ES)_IGNORE. */
   const void* status;
   int status_bytes;
} TrEvent;

#endif
