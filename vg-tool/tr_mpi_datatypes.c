/* tr_mpi_datatypes.c — where the bytes of a message are (tr_mpi_datatypes.h): a derived
   datatype's type map flattened into segments, the sizes of counts of a type, the blocks of a
   v collective. Built into each MPI dialect module, against its mpi.h. */

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "tr_mpi_datatypes.h"

/* The segments of the current call's events (their layout_at, layout_n index them). */
static __thread TrSegment* segments;  /* per thread, as the events that point into them */
static __thread int n_segments, max_segments;
enum { kMaxSegments = 1 << 20 };  /* per message; beyond, the buffer is taken as contiguous */

static void append_segment(MPI_Aint offset, MPI_Aint length, int first)
{
   if (length <= 0) return;
   if (n_segments > first && segments[n_segments - 1].offset + segments[n_segments - 1].length == offset) {
      segments[n_segments - 1].length += length;
      return;
   }
   if (n_segments == max_segments) {
      max_segments = max_segments ? 2 * max_segments : 64;
      segments = realloc(segments, max_segments * sizeof(TrSegment));
   }
   segments[n_segments++] = (TrSegment){offset, length};
}

static MPI_Aint extent_of(MPI_Datatype type)
{
   MPI_Aint lb, extent;
   PMPI_Type_get_extent(type, &lb, &extent);
   return extent;
}

/* The size of `type` if it is a built-in type, else -1. */
static int named_size(MPI_Datatype type)
{
   int n_ints, n_addrs, n_types, combiner, size = -1;
   PMPI_Type_get_envelope(type, &n_ints, &n_addrs, &n_types, &combiner);
   if (combiner == MPI_COMBINER_NAMED) PMPI_Type_size(type, &size);
   return size;
}

static int flatten(MPI_Datatype type, MPI_Aint at, int first);

/* One element of `type` (of `size` when built in, -1 otherwise) at `at`: no call into MPI for
   the elements of a built-in type, which are most of them. */
static int element(MPI_Datatype type, int size, MPI_Aint at, int first)
{
   if (size < 0) return flatten(type, at, first);
   append_segment(at, size, first);
   return n_segments - first <= kMaxSegments;
}

/* Appends the bytes of one element of derived type `type` placed at `at`, in type-map order (segments from
   `first` on are this message's); 0 if the type is built in a way not followed, or has too
   many pieces (then the message is taken as contiguous). */
static int flatten(MPI_Datatype type, MPI_Aint at, int first)
{
   int n_ints, n_addrs, n_types, combiner, i, j, ok = 1, size;
   int* ints;
   MPI_Aint* addrs;
   MPI_Datatype* types;
   MPI_Aint ext;
   PMPI_Type_get_envelope(type, &n_ints, &n_addrs, &n_types, &combiner);  /* not a built-in */
   ints = malloc((n_ints + 1) * sizeof(int));
   addrs = malloc((n_addrs + 1) * sizeof(MPI_Aint));
   types = malloc((n_types + 1) * sizeof(MPI_Datatype));
   PMPI_Type_get_contents(type, n_ints, n_addrs, n_types, ints, addrs, types);
   ext = n_types > 0 ? extent_of(types[0]) : 0;
   size = n_types > 0 ? named_size(types[0]) : -1;
   switch (combiner) {
      case MPI_COMBINER_DUP: case MPI_COMBINER_RESIZED:
         ok = element(types[0], size, at, first);
         break;
      case MPI_COMBINER_CONTIGUOUS:
         for (i = 0; ok && i < ints[0]; i++) ok = element(types[0], size, at + i * ext, first);
         break;
      case MPI_COMBINER_VECTOR: case MPI_COMBINER_HVECTOR: {
         MPI_Aint stride = combiner == MPI_COMBINER_VECTOR ? ints[2] * ext : addrs[0];
         for (i = 0; ok && i < ints[0]; i++)
            for (j = 0; ok && j < ints[1]; j++) ok = element(types[0], size, at + i * stride + j * ext, first);
         break;
      }
      case MPI_COMBINER_INDEXED: case MPI_COMBINER_HINDEXED:
      case MPI_COMBINER_INDEXED_BLOCK: case MPI_COMBINER_HINDEXED_BLOCK: {
         int block = combiner == MPI_COMBINER_INDEXED_BLOCK || combiner == MPI_COMBINER_HINDEXED_BLOCK;
         int bytes_apart = combiner == MPI_COMBINER_HINDEXED || combiner == MPI_COMBINER_HINDEXED_BLOCK;
         for (i = 0; ok && i < ints[0]; i++) {
            int length = block ? ints[1] : ints[1 + i];
            MPI_Aint displacement = bytes_apart ? addrs[i] : ints[(block ? 2 : 1 + ints[0]) + i] * ext;
            for (j = 0; ok && j < length; j++) ok = element(types[0], size, at + displacement + j * ext, first);
         }
         break;
      }
      case MPI_COMBINER_SUBARRAY: {
         /* ints: ndims, sizes[ndims], subsizes[ndims], starts[ndims], order */
         int dims = ints[0], fortran = ints[1 + 3 * dims] == MPI_ORDER_FORTRAN, d;
         int* index = calloc(dims + 1, sizeof(int));
         long long total = 1;
         for (d = 0; d < dims; d++) total *= ints[1 + dims + d];
         for (; ok && total > 0; total--) {
            MPI_Aint offset = 0, stride = ext;
            for (d = 0; d < dims; d++) {  /* from the fastest dimension to the slowest */
               int dim = fortran ? d : dims - 1 - d;
               offset += (ints[1 + 2 * dims + dim] + index[dim]) * stride;
               stride *= ints[1 + dim];
            }
            ok = element(types[0], size, at + offset, first);
            for (d = 0; d < dims; d++) {  /* the next element, in the order's storage order */
               int dim = fortran ? d : dims - 1 - d;
               if (++index[dim] < ints[1 + dims + dim]) break;
               index[dim] = 0;
            }
         }
         free(index);
         break;
      }
      case MPI_COMBINER_STRUCT:
         for (i = 0; ok && i < ints[0]; i++) {
            int member_size = named_size(types[i]);
            MPI_Aint member_extent = extent_of(types[i]);
            for (j = 0; ok && j < ints[1 + i]; j++)
               ok = element(types[i], member_size, at + addrs[i] + j * member_extent, first);
         }
         break;
      default:
         ok = 0;
         break;
   }
   for (i = 0; i < n_types; i++)
      if (named_size(types[i]) < 0) PMPI_Type_free(&types[i]);
   free(ints);
   free(addrs);
   free(types);
   return ok;
}

/* The layout of `count` elements of `type` for event `e`, unless they are contiguous. */
void tr_set_layout(TrEvent* e, int count, MPI_Datatype type)
{
   int n_ints, n_addrs, n_types, combiner, first = n_segments, i;
   MPI_Aint ext;
   if (count <= 0 || type == MPI_DATATYPE_NULL) return;
   PMPI_Type_get_envelope(type, &n_ints, &n_addrs, &n_types, &combiner);
   if (combiner == MPI_COMBINER_NAMED) return;
   ext = extent_of(type);
   for (i = 0; i < count; i++)
      if (!flatten(type, i * ext, first)) {
         n_segments = first;
         return;
      }
   if (n_segments - first == 1 && segments[first].offset == 0) {
      n_segments = first;  /* contiguous after all */
      return;
   }
   e->layout_at = first;
   e->layout_n = n_segments - first;
}

enum { kLineBytes = 64 };  /* tracefmt's kTraceLineBytes */

static int by_offset(const void* a, const void* b)
{
   long long x = ((const TrSegment*)a)->offset, y = ((const TrSegment*)b)->offset;
   return x < y ? -1 : x > y;
}

/* The union of the segments' lines, in address order (a type map may go backwards). */
long long tr_unique_lines(const TrEvent* e, const void* buffer)
{
   long long base = (long long)(MPI_Aint)buffer, lines = 0, counted = -1;
   TrSegment* sorted;
   int i;
   if (e->layout_n <= 0) return 0;
   sorted = malloc(e->layout_n * sizeof(TrSegment));
   memcpy(sorted, segments + e->layout_at, e->layout_n * sizeof(TrSegment));
   qsort(sorted, e->layout_n, sizeof(TrSegment), by_offset);
   for (i = 0; i < e->layout_n; i++) {
      long long first = (base + sorted[i].offset) / kLineBytes;
      long long last = (base + sorted[i].offset + sorted[i].length - 1) / kLineBytes;
      if (first <= counted) first = counted + 1;
      if (last >= first) lines += last - first + 1;
      if (last > counted) counted = last;
   }
   free(sorted);
   return lines;
}

long long tr_bytes(int count, MPI_Datatype type)
{
   int size = 0;
   if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
   PMPI_Type_size(type, &size);
   return (long long)count * size;
}

long long tr_sum_bytes(const int* counts, int n, MPI_Datatype type)
{
   long long total = 0;
   int i;
   for (i = 0; i < n; i++) total += counts[i];
   return total * tr_bytes(1, type);
}

long long tr_sum_bytes_w(const int* counts, int n, const MPI_Datatype* types)
{
   long long total = 0;
   int i;
   for (i = 0; i < n; i++) total += tr_bytes(counts[i], types[i]);
   return total;
}

/* Room for the 2 * P blocks of event `e`, which it then indexes. */
static TrSegment* reserve_blocks(TrEvent* e, int P)
{
   if (n_segments + 2 * P > max_segments) {
      while (n_segments + 2 * P > max_segments) max_segments = max_segments ? 2 * max_segments : 64;
      segments = realloc(segments, max_segments * sizeof(TrSegment));
   }
   e->blocks_at = n_segments;
   e->blocks_n = 2 * P;
   n_segments += 2 * P;
   return segments + e->blocks_at;
}

/* The block of `count` elements of `type` at byte `offset` (none without counts). */
static TrSegment block(const int* counts, int i, MPI_Datatype type, MPI_Aint offset)
{
   return counts ? (TrSegment){offset, tr_bytes(counts[i], type)} : (TrSegment){0, 0};
}

void tr_block_table(TrEvent* e, int P, const int* scounts, const int* sdispls,
                        MPI_Datatype stype, const int* rcounts, const int* rdispls,
                        MPI_Datatype rtype)
{
   TrSegment* blocks = reserve_blocks(e, P);
   int i;
   for (i = 0; i < P; i++)
      blocks[i] = block(scounts, i, stype, scounts ? sdispls[i] * extent_of(stype) : 0);
   for (i = 0; i < P; i++)
      blocks[P + i] = block(rcounts, i, rtype, rcounts ? rdispls[i] * extent_of(rtype) : 0);
}

void tr_block_table_w(TrEvent* e, int P, const int* scounts, const int* sdispls,
                      const MPI_Datatype* stypes, const int* rcounts, const int* rdispls,
                      const MPI_Datatype* rtypes)
{
   TrSegment* blocks = reserve_blocks(e, P);
   int i;
   for (i = 0; i < P; i++) blocks[i] = block(scounts, i, stypes[i], sdispls[i]);
   for (i = 0; i < P; i++) blocks[P + i] = block(rcounts, i, rtypes[i], rdispls[i]);
}

TrSegment* tr_segments(void) { return segments; }
void tr_segments_clear(void) { n_segments = 0; }
