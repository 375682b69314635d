/* tr_overlap.h — the automatic overlap study (SPEC 3.4, thesis 4.2): when each part of a sent
   buffer gets its final store in its production interval, and when each part of a received
   buffer is first loaded in its consumption interval; from that, the `overlap-real` and
   `overlap-ideal` streams (messages cut into chunks: sends advanced to where each chunk is
   produced, waits postponed to where each is first needed), `overlap-speculative` (chunks
   sent where the speculative dataflow protocol would: tr_speculate.h), the `authentic-p2p`
   baseline (collectives as the same point-to-point transfers, nothing moved) and the
   patterns (patterns.N.txt).

   Time is the rank's burst clock: guest instructions outside MPI calls since tracing began. */
#ifndef TR_OVERLAP_H
#define TR_OVERLAP_H

#include "pub_tool_basics.h"

#include "tr_clreq.h"
#include "tr_coll.h"

/* --overlap=yes, --chunks=N (1..64: at most, per message), --chunk-min=BYTES (no chunk smaller;
   0: no minimum), --overlap-shift=no (chunks stay where the call was, and collectives stay
   whole: with one chunk the streams are the authentic run again),
   --collectives=keep|linear|binomial|ring (other than keep, with shifting: the authentic-p2p
   baseline is written too). Set before tracing starts. */
void tr_overlap_configure(Bool enabled, UInt chunks, ULong chunk_min, Bool shift,
                          TrCollAlgorithm collectives);
Bool tr_overlap_enabled(void);

/* Tracing starts in thread `tid`, whose instruction counter reads `count`: the streams open. */
void tr_overlap_begin(ThreadId tid, ULong count);
Bool tr_overlap_active(void);

/* The helpers the instrumented code calls before each access: `count` is the thread's
   instruction counter at the access. */
VG_REGPARM(3) void tr_overlap_load(Addr a, UWord size, ULong count);
VG_REGPARM(3) void tr_overlap_store(Addr a, UWord size, ULong count);
/* A time slice of thread `tid` begins, and it makes a system call: where the accesses of the
   program's other threads are timed from (tr_overlap.c). */
void tr_overlap_slice_starts(ThreadId tid);
void tr_overlap_syscall(ThreadId tid, UInt syscallno, const UWord* args);

/* An MPI call: its own instructions are not on the burst clock; its records take their place
   in the artificial streams. */
void tr_overlap_mpi_enter(ULong count);
void tr_overlap_mpi_exit(const TrEvent* events, Int n, ULong count);

/* Writes the streams and the patterns (`complete`: with their `end`). */
void tr_overlap_finish(Bool complete, ULong count);

#endif
