/* tr_mpi_datatypes.h — where the bytes of the messages of an MPI call are: the layout of a
   message through a derived datatype (vector, indexed, struct, subarray, resized, ... nested) as
   segments of its buffer, the members' own blocks of a v collective, and byte counts. The
   segments of the current call's events live here until tr_segments_clear (the events' *_at
   and *_n index them). */
#ifndef TR_MPI_DATATYPES_H
#define TR_MPI_DATATYPES_H

#include <mpi.h>

#include "tr_clreq.h"

/* `count` elements of `type` (0 for none or MPI_DATATYPE_NULL). */
long long tr_bytes(int count, MPI_Datatype type);
long long tr_sum_bytes(const int* counts, int n, MPI_Datatype type);
/* `counts[i]` elements of `types[i]` for i below `n` (an MPI_Alltoallw's). */
long long tr_sum_bytes_w(const int* counts, int n, const MPI_Datatype* types);

/* The layout of `count` elements of `type` for event `e`, unless they are contiguous. */
void tr_set_layout(TrEvent* e, int count, MPI_Datatype type);

/* The unique 64-byte cache lines the layout of `e` (tr_set_layout) touches from `buffer`; 0
   for a contiguous one. */
long long tr_unique_lines(const TrEvent* e, const void* buffer);

/* The blocks of a collective whose members' blocks differ (TrEvent's `blocks`): what this rank
   sends to each of the `P` members (`scounts` NULL: nothing) and receives from each (`rcounts`
   NULL: nothing), displacements in elements of the types' extents. */
void tr_block_table(TrEvent* e, int P, const int* scounts, const int* sdispls,
                    MPI_Datatype stype, const int* rcounts, const int* rdispls,
                    MPI_Datatype rtype);

/* The same for MPI_Alltoallw: a type per member, displacements in bytes. */
void tr_block_table_w(TrEvent* e, int P, const int* scounts, const int* sdispls,
                      const MPI_Datatype* stypes, const int* rcounts, const int* rdispls,
                      const MPI_Datatype* rtypes);

TrSegment* tr_segments(void);
void tr_segments_clear(void);

#endif
