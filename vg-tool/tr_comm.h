/* tr_comm.h — producer->consumer communication (--comm=KIND): every load is matched to the
   store that last wrote its bytes, and the pair (producer, consumer) counts the bytes and the
   events between them, at the granularity the user picks: function, source line, thread, task
   type or task instance. With sampling (the default), a reservoir of the loads (tr_reservoir.h)
   is looked up instead of every one, and each edge gets its estimated error. Written into the
   trace set as comm.N.txt (docs/trace-format.md). */
#ifndef TR_COMM_H
#define TR_COMM_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* Options --comm, --sample, --sample-z, --sample-error, --sample-fraction, --sample-size,
   --sample-seed: True if `arg` was one. */
Bool tr_comm_option(const HChar* arg);
void tr_comm_print_usage(void);
/* After the options: checks them (exits with a message when they cannot be used together). */
void tr_comm_configure(void);

Bool tr_comm_enabled(void);
/* The site argument of the helpers for an access by the instruction at `a` (translation time):
   its function or line when that is the granularity, else 0. */
UWord tr_comm_site(Addr a);

/* Sampled, the code before a load counts it down inline, and calls tr_comm_load only for the
   loads the reservoir keeps: the statements of that count and the guard of the call (NULL when
   every load is looked up). */
IRExpr* tr_comm_load_guard(IRSB* sb);

VG_REGPARM(3) void tr_comm_load(Addr a, UWord size, UWord site);
VG_REGPARM(3) void tr_comm_store(Addr a, UWord size, UWord site);

/* Writes comm.N.txt into the open trace set (once). */
void tr_comm_write(void);

#endif
