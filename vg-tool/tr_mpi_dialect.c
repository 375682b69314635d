/* tr_mpi_dialect.c — what the modelled MPI calls do, as trace events. Built once per MPI
   against its mpi.h (tareador-mpi-openmpi-amd64-linux.so, tareador-mpi-mpich-amd64-linux.so)
   and loaded by the preload library; it calls the MPI library through the PMPI_ names, which
   the wrappers pass through (they are inside a traced call).

   Ranks in the trace are world ranks; communicators have ids that all their members agree on
   (MPI_COMM_WORLD is 0); immediate operations get request ids; a receive from MPI_ANY_SOURCE
   or MPI_ANY_TAG is resolved when it completes (the status says from whom). */

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr_clreq.h"
#include "tr_dialect.h"
#include "tr_mpi_datatypes.h"
#include "valgrind.h"

typedef unsigned long UW;

/* ---- Communicators ------------------------------------------------------------------------ */

typedef struct {
   MPI_Comm handle;
   int id;
   int size;
   int* world;  /* world rank of each member, in communicator rank order */
   int refs;    /* the list below, and the requests that name it (they may outlive a free) */
} Comm;

/* The communicators known, each allocated apart: requests hold pointers to them. */
static Comm** comms;
static int n_comms, max_comms;
static int world_rank, world_size;
static int comms_created;  /* ids handed out by this rank (as the lowest member) */

static Comm* find_comm(MPI_Comm handle)
{
   int i;
   for (i = 0; i < n_comms; i++)
      if (comms[i]->handle == handle) return comms[i];
   return NULL;
}

static Comm* hold_comm(Comm* c)
{
   c->refs++;
   return c;
}

static void release_comm(Comm* c)
{
   if (--c->refs > 0) return;
   free(c->world);
   free(c);
}

/* Keeps a communicator; announce_comm tells the tool. */
static Comm* store_comm(MPI_Comm handle, int id, int size, int* world)
{
   Comm* c = malloc(sizeof(Comm));
   if (n_comms == max_comms) {
      max_comms = max_comms ? 2 * max_comms : 8;
      comms = realloc(comms, max_comms * sizeof(Comm*));
   }
   *c = (Comm){handle, id, size, world, 1};
   return comms[n_comms++] = c;
}

static void announce_comm(const Comm* c)
{
   VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_COMM_DEF, c->id, c->size, c->world, 0, 0);
}

static Comm* add_comm(MPI_Comm handle, int id, int size, int* world)
{
   Comm* c = store_comm(handle, id, size, world);
   announce_comm(c);
   return c;
}

static void warn(const char* text) { VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_WARN, text, 0, 0, 0, 0); }

/* The ids of communicators this rank creates: its world rank in the high part, a count in the
   low part, so that no two ranks hand out the same id. */
#define COMMS_PER_RANK 4096

/* Registers a communicator just created (a collective call of all its members): its lowest
   world rank names it and the others learn the id from it. */
static void register_comm(MPI_Comm handle)
{
   int size, rank, i, lowest = 0, inter = 0, id;
   int *ranks, *world;
   MPI_Group group, world_group;
   if (handle == MPI_COMM_NULL) return;
   PMPI_Comm_test_inter(handle, &inter);
   if (inter) {
      warn("intercommunicators are not modelled: calls on them are recorded as opaque");
      return;
   }
   PMPI_Comm_size(handle, &size);
   PMPI_Comm_rank(handle, &rank);
   ranks = malloc(size * sizeof(int));
   world = malloc(size * sizeof(int));
   for (i = 0; i < size; i++) ranks[i] = i;
   PMPI_Comm_group(handle, &group);
   PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
   PMPI_Group_translate_ranks(group, size, ranks, world_group, world);
   PMPI_Group_free(&group);
   PMPI_Group_free(&world_group);
   free(ranks);
   for (i = 1; i < size; i++)
      if (world[i] < world[lowest]) lowest = i;
   id = 0;
   if (rank == lowest) {
      if (++comms_created >= COMMS_PER_RANK) warn("more than 4095 communicators: ids repeat");
      id = (world_rank + 1) * COMMS_PER_RANK + comms_created % COMMS_PER_RANK;
   }
   PMPI_Bcast(&id, 1, MPI_INT, lowest, handle);
   add_comm(handle, id, size, world);
}

/* The communicator of a call; MPI_COMM_SELF is known without asking anyone. NULL: unknown
   (an intercommunicator, or made by a call the trace does not model). */
static Comm* comm_of(MPI_Comm handle)
{
   Comm* c = find_comm(handle);
   int* self;
   if (c || handle != MPI_COMM_SELF) return c;
   self = malloc(sizeof(int));
   *self = world_rank;
   return add_comm(handle, (world_rank + 1) * COMMS_PER_RANK, 1, self);
}

static void forget_comm(MPI_Comm handle)
{
   int i;
   for (i = 0; i < n_comms; i++)
      if (comms[i]->handle == handle) {
         release_comm(comms[i]);
         comms[i] = comms[--n_comms];
         return;
      }
}

/* ---- Requests ---------------------------------------------------------------------------- */

/* Immediate operations in flight: MPI_Request handle -> request id (open addressing). Open MPI
   gives one handle to every request that completed as it started (an inline send, a send to
   MPI_PROC_NULL, a collective of one member): requests that share a handle are told apart by
   where the program keeps it, else the oldest is taken. */
typedef struct {
   MPI_Request handle;
   const MPI_Request* where;  /* the program's variable the call stored it in */
   long long id;     /* 0: free slot */
   Comm* comm;
   int used;         /* ever used: keeps probing past freed slots */
   int receive;      /* an immediate receive: its completion says what arrived */
   int wildcard;     /* a receive from MPI_ANY_SOURCE or with MPI_ANY_TAG: held by the tool */
   int collective;   /* a non-blocking collective's */
   int ids;          /* the trace's requests it completes: id, id + 1, ... (a non-blocking
                        neighbourhood collective's transfers: as many as it has, maybe none) */
} Request;

static Request* requests;
static size_t request_slots, requests_live, requests_used; /* used: live + freed slots */
static long long next_request_id = 1;

static size_t slot_of(MPI_Request handle)
{
   uintptr_t key = 0;
   memcpy(&key, &handle, sizeof handle < sizeof key ? sizeof handle : sizeof key);
   key ^= key >> 17;
   key *= 0x9E3779B97F4A7C15ull;
   return (size_t)(key >> 20) & (request_slots - 1);
}

/* The request of `handle`, which the program passes in `*where`. */
static Request* find_request(MPI_Request handle, const MPI_Request* where)
{
   size_t i;
   Request* oldest = NULL;
   if (!request_slots) return NULL;
   for (i = slot_of(handle); requests[i].used; i = (i + 1) & (request_slots - 1))
      if (requests[i].id && requests[i].handle == handle) {
         if (requests[i].where == where) return &requests[i];
         if (!oldest || requests[i].id < oldest->id) oldest = &requests[i];
      }
   return oldest;
}

static void grow_requests(void);

static long long add_request(const MPI_Request* where, int receive, int wildcard, int collective,
                             Comm* comm, int ids)
{
   MPI_Request handle = *where;
   size_t i;
   /* Freed slots still make probes longer: rebuild before they fill the table. */
   if (4 * (requests_used + 1) > 3 * request_slots) grow_requests();
   for (i = slot_of(handle); requests[i].id; i = (i + 1) & (request_slots - 1)) {}
   if (!requests[i].used) requests_used++;
   requests[i] = (Request){handle, where, next_request_id, hold_comm(comm), 1, receive, wildcard,
                           collective, ids};
   requests_live++;
   next_request_id += ids > 0 ? ids : 1;
   return requests[i].id;
}

/* Rebuilds the table without freed slots, twice as big if half of it is live. */
static void grow_requests(void)
{
   Request* old = requests;
   size_t old_slots = request_slots, i;
   if (!request_slots) request_slots = 64;
   else if (2 * requests_live >= request_slots) request_slots *= 2;
   requests = calloc(request_slots, sizeof(Request));
   requests_live = 0;
   for (i = 0; i < old_slots; i++)
      if (old[i].id) {
         size_t j;
         for (j = slot_of(old[i].handle); requests[j].id; j = (j + 1) & (request_slots - 1)) {}
         requests[j] = old[i];
         requests_live++;
      }
   requests_used = requests_live;
   free(old);
}

static void remove_request(Request* r)
{
   release_comm(r->comm);
   r->id = 0;
   requests_live--;
}

/* ---- Matched probes ---------------------------------------------------------------------- */

/* A message MPI_Mprobe or MPI_Improbe found, until MPI_Mrecv or MPI_Imrecv receives it (which
   names no communicator): its communicator, source and tag. Few are pending at once: a list. */
typedef struct {
   MPI_Message handle;
   Comm* comm;
   int source, tag; /* ranks of `comm` */
} Probed;

static Probed* probed;
static int n_probed, max_probed;

static void add_probed(MPI_Message handle, Comm* c, const MPI_Status* status)
{
   if (n_probed == max_probed) {
      max_probed = max_probed ? 2 * max_probed : 8;
      probed = realloc(probed, max_probed * sizeof(Probed));
   }
   probed[n_probed++] = (Probed){handle, hold_comm(c), status->MPI_SOURCE, status->MPI_TAG};
}

/* The probe of message `handle`, out of the list (its communicator still held); 0 if none. */
static int take_probed(MPI_Message handle, Probed* found)
{
   int i;
   for (i = 0; i < n_probed; i++)
      if (probed[i].handle == handle) {
         *found = probed[i];
         probed[i] = probed[--n_probed];
         return 1;
      }
   return 0;
}

/* ---- Events of the current call ---------------------------------------------------------- */

/* Per thread: under MPI_THREAD_MULTIPLE another thread's call may end while this one's blocks
   (its events, recorded before it called MPI, went with the other thread's otherwise). */
static __thread TrEvent* events;
static __thread int n_events, max_events;

static TrEvent* new_event(int kind)
{
   if (n_events == max_events) {
      max_events = max_events ? 2 * max_events : 16;
      events = realloc(events, max_events * sizeof(TrEvent));
   }
   memset(&events[n_events], 0, sizeof(TrEvent));
   events[n_events].kind = kind;
   return &events[n_events++];
}

/* Event `e` starts a non-blocking call whose request the program keeps in `*where`. */
static void starts_request(TrEvent* e, const MPI_Request* where, int receive, int wildcard,
                           int collective, Comm* c)
{
   e->immediate = 1;
   e->request = add_request(where, receive, wildcard, collective, c, 1);
   e->handle = where;
   e->handle_bytes = sizeof(MPI_Request);
}

/* The events from `first` on are immediate requests that complete in the call: one wait for
   them all. */
static void completes_in_call(int first)
{
   int i, last = n_events;
   for (i = first; i < last; i++) {
      events[i].immediate = 1;
      events[i].request = next_request_id++;
   }
   for (i = first; i < last; i++) {
      TrEvent* wait = new_event(TR_EV_WAIT);
      wait->request = events[i].request;
      wait->joined = i != first;
   }
}

/* A send of `count` elements of `type` at `buffer` to `dest` (a rank of `c`). */
static TrEvent* message_sent(Comm* c, const void* buffer, int count, MPI_Datatype type, int dest,
                             long long tag, int mode)
{
   TrEvent* e = new_event(TR_EV_SEND);
   e->buffer = buffer;
   e->peer = c->world[dest];
   e->tag = tag;
   e->comm = c->id;
   e->bytes = tr_bytes(count, type);
   tr_set_layout(e, count, type);
   e->lines = tr_unique_lines(e, buffer);
   e->mode = mode;
   return e;
}

/* A receive posted for `count` elements of `type` into `buffer` from world rank `peer` (-1:
   not known yet) with `tag` (-1: not known yet). */
static TrEvent* receive_posted(Comm* c, void* buffer, int count, MPI_Datatype type, int peer,
                               long long tag)
{
   TrEvent* e = new_event(TR_EV_RECV);
   e->buffer_recv = buffer;
   e->peer = peer;
   e->tag = tag;
   e->comm = c->id;
   e->bytes = tr_bytes(count, type);
   tr_set_layout(e, count, type);
   return e;
}

static void send_event(Comm* c, const void* buffer, int count, MPI_Datatype type, int dest, int tag,
                       int mode, const MPI_Request* request)
{
   TrEvent* e;
   if (dest == MPI_PROC_NULL) return;
   e = message_sent(c, buffer, count, type, dest, tag, mode);
   if (request) starts_request(e, request, 0, 0, 0, c);
}

/* Event `e`'s MPI call filled `status`, the program's own unless `ours`. */
static void fills_status(TrEvent* e, const MPI_Status* status, int ours)
{
   if (ours) return;
   e->status = status;
   e->status_bytes = sizeof(MPI_Status);
}

/* A receive that completed with `status` (ours: not the program's). */
static void recv_event(Comm* c, void* buffer, const MPI_Status* status, int ours,
                       MPI_Datatype type, int count)
{
   TrEvent* e;
   int received = MPI_UNDEFINED;
   if (status->MPI_SOURCE == MPI_PROC_NULL) return;
   PMPI_Get_count(status, type, &received);
   e = new_event(TR_EV_RECV);
   e->buffer_recv = buffer;
   e->peer = c->world[status->MPI_SOURCE];
   e->tag = status->MPI_TAG;
   e->comm = c->id;
   e->bytes = tr_bytes(received == MPI_UNDEFINED ? count : received, type);
   tr_set_layout(e, received == MPI_UNDEFINED ? count : received, type);
   fills_status(e, status, ours);
}

/* Whether request `r`, just completed with `status`, was cancelled (MPI_Cancel): then it is
   done, with no wait. A receive from an unknown source is still held by the tool, which drops
   it; any other was recorded already (a warning): a send is replayed, a receive is never
   waited for, but still takes its place in the posting order that lets rendezvous sends go. */
static int cancelled(Request* r, const MPI_Status* status)
{
   int flag = 0;
   TrEvent* e;
   PMPI_Test_cancelled(status, &flag);
   if (!flag) return 0;
   if (r->wildcard) {
      e = new_event(TR_EV_RESOLVE);
      e->request = r->id;
      e->peer = TR_PEER_CANCELLED;
   } else {
      warn(r->receive ? "a cancelled receive from a known source is in the trace, posted and "
                        "never waited for: its replay gives it no message, but pairs it in "
                        "posting order with a send of its channel, so later rendezvous sends on "
                        "its channel may go earlier than they did (before their receive is posted)"
                      : "a cancelled send is in the trace: its replay sends it");
   }
   remove_request(r);
   return 1;
}

/* The wait events of requests that completed (their handles before the call, the statuses:
   ours, not the program's, if `ours`). */
static void completed(const MPI_Request* handles, const MPI_Request* where, const int* which, int n,
                      const MPI_Status* statuses, int ours)
{
   int i, j, joined = 0;
   for (i = 0; i < n; i++) {
      int k = which ? which[i] : i;
      Request* r = find_request(handles[k], &where[k]);
      TrEvent* e;
      if (!r) continue; /* not started by a call the trace models, or before tracing */
      if (!r->collective && cancelled(r, &statuses[i])) continue;
      if (r->receive) { /* its source and tag if they were wildcards, and the bytes it got */
         int received = 0;
         PMPI_Get_count(&statuses[i], MPI_BYTE, &received);
         e = new_event(TR_EV_RESOLVE);
         e->request = r->id;
         e->peer = r->comm->world[statuses[i].MPI_SOURCE];
         e->tag = statuses[i].MPI_TAG;
         e->bytes = received == MPI_UNDEFINED ? -1 : received;
      }
      for (j = 0; j < r->ids; j++) {
         e = new_event(TR_EV_WAIT);
         e->request = r->id + j;
         e->handle = &where[k];
         e->handle_bytes = sizeof(MPI_Request);
         if (j == 0) fills_status(e, &statuses[i], ours);
         e->joined = joined;
         e->collective = r->collective;
         joined = 1;
      }
      remove_request(r);
   }
}

/* ---- Calls ------------------------------------------------------------------------------- */

/* What a modelled call does (tr_mpi_modelled.def gives each call its family). */
typedef enum {
   INIT, FINALIZE, ABORT, SEND, RECV, IRECV, SENDRECV, SEND_INIT, RECV_INIT, PROBE, MPROBE, START,
   STARTALL, COMPLETE_ONE, COMPLETE_ALL, COMPLETE_ANY, COMPLETE_SOME, REQUEST_FREE, MRECV,
   COMM_NEW, COMM_FREE, BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, GATHERV, SCATTER, SCATTERV,
   ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK,
   NEIGHBOR_ALLGATHER, NEIGHBOR_ALLGATHERV, NEIGHBOR_ALLTOALL, NEIGHBOR_ALLTOALLV,
   NEIGHBOR_ALLTOALLW
} Family;

/* Where the arguments of a call are: the positions of those its family reads. A send's message
   (buf, count, type, peer, tag) and a receive's (rbuf, rcount, rtype, rpeer, rtag); for a
   collective, count and rcount are arrays in its v form, with sdispls and rdispls. The request
   of an immediate call and the flag of a test are never at 0: 0 means a blocking call, a wait. */
typedef struct {
   int buf, count, type, peer, tag, mode, request;
   int rbuf, rcount, rtype, rpeer, rtag;
   int sdispls, rdispls, root, comm;
   int requests, n, flag, index, outcount, status;
   int code, newcomm, freed, message;
   int info; /* a persistent collective's */
} TrArgs;

typedef struct {
   const char* name;
   Family family;
   TrArgs at;
} CallInfo;

#define ARGS(...) {__VA_ARGS__}
static const CallInfo kCalls[] = {
#define X(name, arguments, family, where) {"MPI_" #name, family, where},
#include "tr_mpi_modelled.def"
#undef X
};
#undef ARGS

#define ARG(i, type) ((type)args[i])
#define AT(field, type) ARG(k->at.field, type)
#define CALL_ORIGINAL(result, a)                                                             \
   CALL_FN_W_12W(result, fn, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],    \
                 a[10], a[11])

/* A persistent request's: MPI_Send_init and the like, and the collectives' (with an info). */
static int makes_persistent(const CallInfo* k)
{
   return k->family == SEND_INIT || k->family == RECV_INIT || k->at.info;
}

/* Point-to-point calls and collectives name a communicator the trace must know. */
static int has_comm(Family f) { return (f >= SEND && f <= MPROBE && f != PROBE) || f >= BARRIER; }

/* The send and receive buffers of a collective (MPI_IN_PLACE: the receive buffer is also what
   is sent). */
static void collective_buffers(const CallInfo* k, const UW* args, TrEvent* e)
{
   if (k->family == BARRIER) return;
   if (k->family == BCAST) {
      e->buffer = e->buffer_recv = AT(buf, void*);
      return;
   }
   e->buffer_recv = AT(rbuf, void*);
   e->buffer = AT(buf, void*) == MPI_IN_PLACE ? e->buffer_recv : AT(buf, void*);
}

/* The members' blocks of their own sizes of a v collective, where this rank knows them. */
static void collective_blocks(const CallInfo* k, const UW* args, TrEvent* e, int P, int rank,
                              int root)
{
   switch (k->family) {
      case ALLTOALLV: {
         int in_place = AT(buf, void*) == MPI_IN_PLACE;
         tr_block_table(e, P, in_place ? AT(rcount, const int*) : AT(count, const int*),
                     in_place ? AT(rdispls, const int*) : AT(sdispls, const int*),
                     in_place ? AT(rtype, MPI_Datatype) : AT(type, MPI_Datatype),
                     AT(rcount, const int*), AT(rdispls, const int*), AT(rtype, MPI_Datatype));
         break;
      }
      case ALLTOALLW: {
         int in_place = AT(buf, void*) == MPI_IN_PLACE;
         const MPI_Datatype* rtypes = AT(rtype, const MPI_Datatype*);
         tr_block_table_w(e, P, in_place ? AT(rcount, const int*) : AT(count, const int*),
                          in_place ? AT(rdispls, const int*) : AT(sdispls, const int*),
                          in_place ? rtypes : AT(type, const MPI_Datatype*),
                          AT(rcount, const int*), AT(rdispls, const int*), rtypes);
         break;
      }
      case ALLGATHERV:
         tr_block_table(e, P, NULL, NULL, MPI_DATATYPE_NULL, AT(rcount, const int*),
                     AT(rdispls, const int*), AT(rtype, MPI_Datatype));
         break;
      case GATHERV:
         if (rank == root)
            tr_block_table(e, P, NULL, NULL, MPI_DATATYPE_NULL, AT(rcount, const int*),
                        AT(rdispls, const int*), AT(rtype, MPI_Datatype));
         break;
      case SCATTERV:
         if (rank == root)
            tr_block_table(e, P, AT(count, const int*), AT(sdispls, const int*),
                        AT(type, MPI_Datatype), NULL, NULL, MPI_DATATYPE_NULL);
         break;
      default: break;
   }
}

/* Bytes sent and received by this rank in a collective (MPI semantics, per rank); a
   non-blocking one (started) is immediate, with its request in `*request` (NULL: blocking). */
static void collective_event(const CallInfo* k, const UW* args, Comm* c,
                             const MPI_Request* request)
{
   int P = c->size, rank = 0, root = -1;
   int in_place = k->family != BARRIER && AT(buf, void*) == MPI_IN_PLACE;
   long long sent = 0, received = 0;
   TrEvent* e;
   PMPI_Comm_rank(AT(comm, MPI_Comm), &rank);
   switch (k->family) {
      case BCAST:
         root = AT(root, int);
         if (rank == root) sent = tr_bytes(AT(count, int), AT(type, MPI_Datatype));
         else received = tr_bytes(AT(count, int), AT(type, MPI_Datatype));
         break;
      case REDUCE:
         root = AT(root, int);
         sent = tr_bytes(AT(count, int), AT(type, MPI_Datatype));
         if (rank == root) received = sent;
         break;
      case ALLREDUCE:
         sent = received = tr_bytes(AT(count, int), AT(type, MPI_Datatype));
         break;
      case GATHER: case GATHERV:
         root = AT(root, int);
         sent = in_place ? 0 : tr_bytes(AT(count, int), AT(type, MPI_Datatype));
         if (rank == root)
            received = k->family == GATHER ? P * tr_bytes(AT(rcount, int), AT(rtype, MPI_Datatype))
                                           : tr_sum_bytes(AT(rcount, const int*), P, AT(rtype, MPI_Datatype));
         break;
      case SCATTER: case SCATTERV:
         root = AT(root, int);
         if (rank == root)
            sent = k->family == SCATTER ? P * tr_bytes(AT(count, int), AT(type, MPI_Datatype))
                                        : tr_sum_bytes(AT(count, const int*), P, AT(type, MPI_Datatype));
         received = AT(rbuf, void*) == MPI_IN_PLACE ? 0 : tr_bytes(AT(rcount, int), AT(rtype, MPI_Datatype));
         break;
      case ALLGATHER:
         received = P * tr_bytes(AT(rcount, int), AT(rtype, MPI_Datatype));
         sent = in_place ? received / P : tr_bytes(AT(count, int), AT(type, MPI_Datatype));
         break;
      case ALLGATHERV:
         received = tr_sum_bytes(AT(rcount, const int*), P, AT(rtype, MPI_Datatype));
         sent = in_place ? tr_bytes(AT(rcount, const int*)[rank], AT(rtype, MPI_Datatype))
                         : tr_bytes(AT(count, int), AT(type, MPI_Datatype));
         break;
      case ALLTOALL:
         received = P * tr_bytes(AT(rcount, int), AT(rtype, MPI_Datatype));
         sent = in_place ? received : P * tr_bytes(AT(count, int), AT(type, MPI_Datatype));
         break;
      case ALLTOALLV:
         received = tr_sum_bytes(AT(rcount, const int*), P, AT(rtype, MPI_Datatype));
         sent = in_place ? received : tr_sum_bytes(AT(count, const int*), P, AT(type, MPI_Datatype));
         break;
      case ALLTOALLW: /* a type per member */
         received = tr_sum_bytes_w(AT(rcount, const int*), P, AT(rtype, const MPI_Datatype*));
         sent = in_place ? received
                         : tr_sum_bytes_w(AT(count, const int*), P, AT(type, const MPI_Datatype*));
         break;
      case REDUCE_SCATTER:
         sent = tr_sum_bytes(AT(rcount, const int*), P, AT(type, MPI_Datatype));
         received = tr_bytes(AT(rcount, const int*)[rank], AT(type, MPI_Datatype));
         break;
      case REDUCE_SCATTER_BLOCK:
         received = tr_bytes(AT(rcount, int), AT(type, MPI_Datatype));
         sent = P * received;
         break;
      default: break;
   }
   e = new_event(TR_EV_COLL);
   collective_blocks(k, args, e, P, rank, root);
   collective_buffers(k, args, e);
   e->name = k->name;
   e->comm = c->id;
   e->root = root >= 0 ? c->world[root] : -1;
   e->bytes = sent;
   e->bytes_recv = received;
   if (request) starts_request(e, request, 0, 0, 1, c);
}

static void opaque(const char* name)
{
   TrEvent* e = new_event(TR_EV_CALL);
   e->name = name;
}

/* ---- Neighbourhood collectives ---------------------------------------------------------- */

/* A neighbourhood collective is what MPI libraries make of it: an immediate receive from each
   in-neighbour and an immediate send to each out-neighbour, then a wait for all of them (at
   the call, or at the wait of the request of its non-blocking form). Its transfers have a tag
   of their own, which no MPI tag is (negative), nor the overlap kinds' collectives' (tool.md);
   small enough that its chunks' tags stay 32-bit (a Dimemas trace's). The replay knows it as
   trace::kNeighbourhoodTag. */
#define NEIGHBOR_TAG (-(1ll << 24))

/* The in- and out-neighbours of `comm` (its ranks; MPI_PROC_NULL where a Cartesian dimension
   ends), in the order the collectives use them: a Cartesian dimension's source then
   destination (MPI_Cart_shift by 1), a graph's neighbours, a distributed graph's sources and
   destinations. Returns the topology (MPI_CART, ...), 0 if none. The lists are malloc'ed. */
static int neighbours(MPI_Comm comm, int** in, int* n_in, int** out, int* n_out)
{
   int topology = MPI_UNDEFINED, rank, d, weighted, *sw, *dw;
   PMPI_Topo_test(comm, &topology);
   if (topology == MPI_CART) {
      PMPI_Cartdim_get(comm, &d);
      *n_in = *n_out = 2 * d;
      *in = malloc((2 * d + 1) * sizeof(int));
      *out = malloc((2 * d + 1) * sizeof(int));
      for (d = 0; d < *n_in / 2; d++) PMPI_Cart_shift(comm, d, 1, &(*in)[2 * d], &(*in)[2 * d + 1]);
      memcpy(*out, *in, *n_in * sizeof(int));
      return MPI_CART;
   }
   if (topology == MPI_GRAPH) {
      PMPI_Comm_rank(comm, &rank);
      PMPI_Graph_neighbors_count(comm, rank, n_in);
      *n_out = *n_in;
      *in = malloc((*n_in + 1) * sizeof(int));
      *out = malloc((*n_in + 1) * sizeof(int));
      PMPI_Graph_neighbors(comm, rank, *n_in, *in);
      memcpy(*out, *in, *n_in * sizeof(int));
      return MPI_GRAPH;
   }
   if (topology != MPI_DIST_GRAPH) return 0;
   PMPI_Dist_graph_neighbors_count(comm, n_in, n_out, &weighted);
   *in = malloc((*n_in + 1) * sizeof(int));
   *out = malloc((*n_out + 1) * sizeof(int));
   sw = malloc((*n_in + 1) * sizeof(int));
   dw = malloc((*n_out + 1) * sizeof(int));
   PMPI_Dist_graph_neighbors(comm, *n_in, *in, sw, *n_out, *out, dw);
   free(sw);
   free(dw);
   return MPI_DIST_GRAPH;
}

/* Where block `i` of a neighbourhood collective's buffer is (`counts`, `displs` in elements of
   `type`, NULL: blocks of `count` one after the other; `byte_displs`: in bytes, an
   MPI_Neighbor_alltoallw's). */
typedef struct {
   char* buffer;
   int same; /* every block is block 0 (an allgather's send) */
   int count;
   const int* counts;
   const int* displs;
   const MPI_Aint* byte_displs;
   MPI_Datatype type;
   const MPI_Datatype* types;
} Blocks;

static void block_of(const Blocks* b, int i, void** at, int* count, MPI_Datatype* type)
{
   MPI_Aint lb, extent;
   if (b->same) i = 0;
   *type = b->types ? b->types[i] : b->type;
   *count = b->counts ? b->counts[i] : b->count;
   if (b->byte_displs) {
      *at = b->buffer + b->byte_displs[i];
      return;
   }
   PMPI_Type_get_extent(*type, &lb, &extent);
   *at = b->buffer + (b->displs ? (MPI_Aint)b->displs[i] : (MPI_Aint)i * *count) * extent;
}

/* The send and receive blocks of neighbourhood collective `k` (an allgather sends the same
   block to everyone). */
static void neighbour_blocks(const CallInfo* k, const UW* args, Blocks* send, Blocks* recv)
{
   int v = k->family == NEIGHBOR_ALLTOALLV, w = k->family == NEIGHBOR_ALLTOALLW;
   *send = (Blocks){AT(buf, char*), 0, 0, NULL, NULL, NULL, MPI_DATATYPE_NULL, NULL};
   *recv = *send;
   recv->buffer = AT(rbuf, char*);
   if (w) {
      send->counts = AT(count, const int*);
      send->byte_displs = AT(sdispls, const MPI_Aint*);
      send->types = AT(type, const MPI_Datatype*);
      recv->counts = AT(rcount, const int*);
      recv->byte_displs = AT(rdispls, const MPI_Aint*);
      recv->types = AT(rtype, const MPI_Datatype*);
      return;
   }
   send->type = AT(type, MPI_Datatype);
   recv->type = AT(rtype, MPI_Datatype);
   if (v) {
      send->counts = AT(count, const int*);
      send->displs = AT(sdispls, const int*);
   } else {
      send->count = AT(count, int);
      send->same = k->family != NEIGHBOR_ALLTOALL;
   }
   if (k->family == NEIGHBOR_ALLGATHERV || v) {
      recv->counts = AT(rcount, const int*);
      recv->displs = AT(rdispls, const int*);
   } else {
      recv->count = AT(rcount, int);
   }
}

/* The transfers of neighbourhood collective `k` on `c`: complete in the call, or (non-blocking,
   started) at the wait of the request in `*request`. */
static void neighbour_call(const CallInfo* k, const UW* args, Comm* c, const MPI_Request* request)
{
   int *in, *out, n_in, n_out, i, j, count, first = n_events;
   void* at;
   MPI_Datatype type;
   Blocks send, recv;
   long long id;
   int topology = neighbours(AT(comm, MPI_Comm), &in, &n_in, &out, &n_out);
   if (!topology) {
      opaque(k->name); /* no topology: MPI said so */
      return;
   }
   neighbour_blocks(k, args, &send, &recv);
   for (i = 0; i < n_in; i++)
      if (in[i] != MPI_PROC_NULL) {
         block_of(&recv, i, &at, &count, &type);
         receive_posted(c, at, count, type, c->world[in[i]], NEIGHBOR_TAG);
      }
   /* What a rank sends to its destination in a Cartesian dimension arrives from its
      neighbour's source: sent first, it meets that receive, posted first, where both
      neighbours are one rank (a periodic dimension of 1 or 2). */
   for (i = 0; i < n_out; i++) {
      j = topology == MPI_CART ? i ^ 1 : i;
      if (out[j] == MPI_PROC_NULL) continue;
      block_of(&send, j, &at, &count, &type);
      message_sent(c, at, count, type, out[j], NEIGHBOR_TAG, TR_MODE_EAGER);
   }
   free(in);
   free(out);
   if (!request) {
      completes_in_call(first);
      return;
   }
   id = add_request(request, 0, 0, 0, c, n_events - first);
   for (i = first; i < n_events; i++) {
      events[i].immediate = 1;
      events[i].request = id++;
      events[i].handle = request;
      events[i].handle_bytes = sizeof(MPI_Request);
   }
}

static void enter(const char* name)
{
   VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_ENTER, name, 0, 0, 0, 0);
}

static void leave(void)
{
   TrEvent* these = events;
   int i, n = n_events;
   for (i = 0; i < n; i++) {  /* the segments are where they will stay until the next call */
      these[i].layout = these[i].layout_n > 0 ? tr_segments() + these[i].layout_at : NULL;
      these[i].blocks = these[i].blocks_n > 0 ? tr_segments() + these[i].blocks_at : NULL;
   }
   /* Emptied (not freed) first: past the request the program's burst is counted again, and a
      thread-local variable's address may come from the dynamic linker's code. */
   n_events = 0;
   tr_segments_clear();
   VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_EXIT, these, n, 0, 0, 0);
}

/* A copy of `n` request handles, before the call overwrites them. */
static MPI_Request* copy_handles(const MPI_Request* handles, int n)
{
   MPI_Request* copy = malloc((n > 0 ? n : 1) * sizeof(MPI_Request));
   memcpy(copy, handles, n * sizeof(MPI_Request));
   return copy;
}

static MPI_Status* statuses_for(MPI_Status* given, int n, MPI_Status** own)
{
   *own = NULL;
   if (given != MPI_STATUSES_IGNORE) return given;
   return *own = malloc((n > 0 ? n : 1) * sizeof(MPI_Status));
}

/* Everything is prepared before the trace starts: what runs after it starts is the first
   burst, and allocations (whose cost depends on what MPI_Init allocated) would make it vary. */
static unsigned long start_tracing(OrigFn fn, const UW* args)
{
   UW result;
   int* world;
   const Comm* c;
   int i;
   MPI_Comm parent;
   VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_INIT_BEGINS, 0, 0, 0, 0, 0);
   CALL_ORIGINAL(result, args);
   PMPI_Comm_get_parent(&parent);
   if (parent != MPI_COMM_NULL) {
      VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_SPAWNED, 0, 0, 0, 0, 0);
      return result;
   }
   PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
   PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
   world = malloc(world_size * sizeof(int));
   for (i = 0; i < world_size; i++) world[i] = i;
   c = store_comm(MPI_COMM_WORLD, 0, world_size, world);
   VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_INIT, world_rank, world_size, 0, 0, 0);
   announce_comm(c);
   return result;
}

/* A send of the message at k->at (an immediate one when the call has a request). */
static void send_call(const CallInfo* k, const UW* args, Comm* c)
{
   send_event(c, AT(buf, void*), AT(count, int), AT(type, MPI_Datatype), AT(peer, int),
              AT(tag, int), k->at.mode, k->at.request ? AT(request, MPI_Request*) : NULL);
}

/* An immediate receive (from a wildcard source or tag: held as unknown, -1, until it completes). */
static void irecv_event(Comm* c, void* buffer, int count, MPI_Datatype type, int source, int tag,
                        const MPI_Request* request)
{
   TrEvent* e;
   if (source == MPI_PROC_NULL) return;
   e = receive_posted(c, buffer, count, type,
                      source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG ? -1 : c->world[source],
                      tag == MPI_ANY_TAG ? -1 : tag);
   starts_request(e, request, 1, e->peer < 0, 0, c);
}

/* ---- Persistent requests ----------------------------------------------------------------- */

/* What MPI_Send_init, MPI_Recv_init, MPI_Allreduce_init and the like made: each MPI_Start of
   the handle is the non-blocking call with the same arguments (MPI_Isend, MPI_Iallreduce, ...),
   whose buffers, counts and types the program keeps until it frees the request. Programs make
   few of them, once: a list. */
typedef struct {
   MPI_Request handle;
   const CallInfo* call; /* the call that made it */
   UW args[TR_MAX_ARGS]; /* its arguments */
   Comm* comm;
} Persistent;

static Persistent* persistents;
static int n_persistents, max_persistents;

static Persistent* find_persistent(MPI_Request handle)
{
   int i;
   for (i = 0; i < n_persistents; i++)
      if (persistents[i].handle == handle) return &persistents[i];
   return NULL;
}

static void add_persistent(Persistent p)
{
   if (n_persistents == max_persistents) {
      max_persistents = max_persistents ? 2 * max_persistents : 16;
      persistents = realloc(persistents, max_persistents * sizeof(Persistent));
   }
   hold_comm(p.comm);
   persistents[n_persistents++] = p;
}

static void forget_persistent(MPI_Request handle)
{
   Persistent* p = find_persistent(handle);
   if (!p) return;
   release_comm(p->comm);
   *p = persistents[--n_persistents];
}

/* A persistent request made: kept for its starts. */
static void persistent_call(const CallInfo* k, const UW* args, Comm* c)
{
   Persistent p;
   p.handle = *AT(request, MPI_Request*);
   p.call = k;
   memcpy(p.args, args, sizeof p.args);
   p.comm = c;
   forget_persistent(p.handle); /* a handle freed by MPI and made again */
   add_persistent(p);
}

/* MPI_Start(all): each persistent request started is its non-blocking call, the request in
   `handles[i]`. */
static void start_call(const MPI_Request* handles, int n)
{
   int i;
   for (i = 0; i < n; i++) {
      Persistent* p = find_persistent(handles[i]);
      const CallInfo* k;
      const UW* args;
      if (!p) continue; /* made before tracing, or on a communicator the trace does not know */
      k = p->call;
      args = p->args;
      switch (k->family) {
         case RECV_INIT:
            irecv_event(p->comm, AT(rbuf, void*), AT(rcount, int), AT(rtype, MPI_Datatype),
                        AT(rpeer, int), AT(rtag, int), &handles[i]);
            break;
         case SEND_INIT:
            send_event(p->comm, AT(buf, void*), AT(count, int), AT(type, MPI_Datatype),
                       AT(peer, int), AT(tag, int), k->at.mode, &handles[i]);
            break;
         case NEIGHBOR_ALLGATHER: case NEIGHBOR_ALLGATHERV: case NEIGHBOR_ALLTOALL:
         case NEIGHBOR_ALLTOALLV: case NEIGHBOR_ALLTOALLW:
            neighbour_call(k, args, p->comm, &handles[i]);
            break;
         default:
            collective_event(k, args, p->comm, &handles[i]);
            break;
      }
   }
}

/* An immediate send and receive, then one wait for both. */
static void sendrecv_call(const CallInfo* k, const UW* args, const UW* a, Comm* c)
{
   int first = n_events;
   send_event(c, AT(buf, void*), AT(count, int), AT(type, MPI_Datatype), AT(peer, int),
              AT(tag, int), TR_MODE_EAGER, NULL);
   recv_event(c, AT(rbuf, void*), (MPI_Status*)a[k->at.status],
              AT(status, MPI_Status*) == MPI_STATUS_IGNORE, AT(rtype, MPI_Datatype),
              AT(rcount, int));
   completes_in_call(first);
}

/* Whether a completion call completed anything: always a wait, a test when its flag is set. */
static int completed_any(const CallInfo* k, const UW* args)
{
   return !k->at.flag || *AT(flag, int*);
}

/* Tests and probes that found nothing (they leave no record). A loop of them (a program
   polling for messages) is in the bursts as computation: its instructions grow with how long
   the traced run waited, which the replay then predicts as work. Said once they are many.
   Whether it found nothing (a test or probe with a flag); counted. */
#define IDLE_POLLS_SAID 1000
static unsigned long idle_polls;

static int idle_poll(const CallInfo* k, const UW* args)
{
   int idle = k->at.flag ? !*AT(flag, int*) : k->family == COMPLETE_SOME && *AT(outcount, int*) == 0;
   if (idle && ++idle_polls == IDLE_POLLS_SAID)
      warn("more than 1000 MPI tests or probes (MPI_Test, MPI_Testany, MPI_Testsome, MPI_Testall, "
           "MPI_Iprobe, MPI_Improbe) found nothing: if the program polls for messages in a loop, "
           "the instructions it spends polling are in its bursts as computation, so the replay "
           "predicts the traced run's waiting as work (and runs differ); MPI_Wait (MPI_Probe) "
           "where the program only polls predicts it");
   return idle;
}

/* A wait or test: calls the original with statuses the trace can read, and says which of its
   requests completed. */
static UW completion_call(const CallInfo* k, OrigFn fn, const UW* args, UW* a)
{
   UW result;
   MPI_Status status, *own = NULL;
   int n = k->family == COMPLETE_ONE ? 1 : AT(n, int);
   const MPI_Request* where = AT(requests, MPI_Request*);
   MPI_Request* handles = copy_handles(where, n);
   int one = k->family == COMPLETE_ONE || k->family == COMPLETE_ANY;
   int ours = AT(status, MPI_Status*) == (one ? MPI_STATUS_IGNORE : MPI_STATUSES_IGNORE);
   if (one) {
      if (AT(status, MPI_Status*) == MPI_STATUS_IGNORE) a[k->at.status] = (UW)&status;
   } else {
      a[k->at.status] = (UW)statuses_for(AT(status, MPI_Status*), n, &own);
   }
   CALL_ORIGINAL(result, a);
   idle_poll(k, args);
   switch (k->family) {
      case COMPLETE_ONE: case COMPLETE_ALL:
         if (completed_any(k, args))
            completed(handles, where, NULL, n, (MPI_Status*)a[k->at.status], ours);
         break;
      case COMPLETE_ANY:
         if (completed_any(k, args) && *AT(index, int*) != MPI_UNDEFINED)
            completed(handles, where, AT(index, int*), 1, (MPI_Status*)a[k->at.status], ours);
         break;
      default: /* COMPLETE_SOME */
         if (*AT(outcount, int*) != MPI_UNDEFINED)
            completed(handles, where, AT(index, int*), *AT(outcount, int*),
                      (MPI_Status*)a[k->at.status], ours);
         break;
   }
   free(handles);
   free(own);
   return result;
}

/* A warning about call `call`, once per call and `format` (which names the call with %s; the
   tool keeps one copy of each text anyway). */
typedef struct {
   TrCall call;
   const char* format;
} Said;

static void said_once(TrCall call, const char* format)
{
   static Said said[64];
   static int n_said;
   char text[384];
   int i;
   for (i = 0; i < n_said; i++)
      if (said[i].call == call && said[i].format == format) return;
   if (n_said < (int)(sizeof said / sizeof *said)) said[n_said++] = (Said){call, format};
   snprintf(text, sizeof text, format, kCalls[call].name);
   warn(text);
}

static unsigned long dialect_call(TrCall call, OrigFn fn, const UW* args)
{
   const CallInfo* k = &kCalls[call];
   UW a[TR_MAX_ARGS];
   UW result;
   MPI_Status status;
   Comm* c = NULL;

   if (k->family == INIT) return start_tracing(fn, args);
   memcpy(a, args, sizeof a);
   enter(k->name);
   if (has_comm(k->family) && !(c = comm_of(AT(comm, MPI_Comm)))) {
      /* A communicator the trace does not know: the call is opaque. */
      CALL_ORIGINAL(result, a);
      opaque(k->name);
      said_once(call, "%s on a communicator the trace does not know (an intercommunicator, or "
                      "one made by a call it does not model): an opaque call, its messages are "
                      "not replayed");
      leave();
      return result;
   }
   if (makes_persistent(k)) { /* its starts are the calls */
      CALL_ORIGINAL(result, a);
      if (result == MPI_SUCCESS) persistent_call(k, args, c);
      opaque(k->name);
      leave();
      return result;
   }
   switch (k->family) {
      case FINALIZE:
         VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_FINALIZE, 0, 0, 0, 0, 0);
         CALL_ORIGINAL(result, a);
         return result;
      case ABORT:
         VALGRIND_DO_CLIENT_REQUEST_STMT(TR_REQ_MPI_ABORT, AT(code, int), 0, 0, 0, 0);
         CALL_ORIGINAL(result, a);
         return result;
      case SEND:
         /* A blocking send is traced before the call (it may block until received). */
         if (!k->at.request) send_call(k, args, c);
         CALL_ORIGINAL(result, a);
         if (k->at.request) send_call(k, args, c);
         break;
      case RECV:
         if (AT(status, MPI_Status*) == MPI_STATUS_IGNORE) a[k->at.status] = (UW)&status;
         CALL_ORIGINAL(result, a);
         recv_event(c, AT(rbuf, void*), (MPI_Status*)a[k->at.status],
                    AT(status, MPI_Status*) == MPI_STATUS_IGNORE, AT(rtype, MPI_Datatype),
                    AT(rcount, int));
         break;
      case IRECV:
         CALL_ORIGINAL(result, a);
         irecv_event(c, AT(rbuf, void*), AT(rcount, int), AT(rtype, MPI_Datatype), AT(rpeer, int),
                     AT(rtag, int), AT(request, MPI_Request*));
         break;
      case PROBE: /* an opaque call unless it found nothing: the receive of the message waits */
         CALL_ORIGINAL(result, a);
         if (!idle_poll(k, args)) opaque(k->name);
         break;
      case MPROBE: /* as a probe, and the message found is kept for its receive */
         if (AT(status, MPI_Status*) == MPI_STATUS_IGNORE) a[k->at.status] = (UW)&status;
         CALL_ORIGINAL(result, a);
         if (idle_poll(k, args)) break;
         if (result == MPI_SUCCESS && *AT(message, MPI_Message*) != MPI_MESSAGE_NO_PROC)
            add_probed(*AT(message, MPI_Message*), c, (MPI_Status*)a[k->at.status]);
         opaque(k->name);
         break;
      case MRECV: {
         MPI_Message handle = *AT(message, MPI_Message*);
         Probed p;
         int known = handle != MPI_MESSAGE_NO_PROC && take_probed(handle, &p);
         if (!k->at.request && AT(status, MPI_Status*) == MPI_STATUS_IGNORE)
            a[k->at.status] = (UW)&status;
         CALL_ORIGINAL(result, a);
         if (known && k->at.request) {
            irecv_event(p.comm, AT(rbuf, void*), AT(rcount, int), AT(rtype, MPI_Datatype),
                        p.source, p.tag, AT(request, MPI_Request*));
         } else if (known) {
            recv_event(p.comm, AT(rbuf, void*), (MPI_Status*)a[k->at.status],
                       AT(status, MPI_Status*) == MPI_STATUS_IGNORE, AT(rtype, MPI_Datatype),
                       AT(rcount, int));
         } else if (handle != MPI_MESSAGE_NO_PROC) { /* probed before tracing, or on a
                                                         communicator the trace does not know */
            opaque(k->name);
         }
         if (known) release_comm(p.comm);
         break;
      }
      case START: case STARTALL: {
         int n = k->family == START ? 1 : AT(n, int);
         CALL_ORIGINAL(result, a);
         if (result == MPI_SUCCESS) start_call(AT(requests, MPI_Request*), n);
         if (n_events == 0) opaque(k->name); /* nothing the trace models was started */
         break;
      }
      case SENDRECV:
         if (AT(status, MPI_Status*) == MPI_STATUS_IGNORE) a[k->at.status] = (UW)&status;
         CALL_ORIGINAL(result, a);
         sendrecv_call(k, args, a, c);
         break;
      case COMPLETE_ONE: case COMPLETE_ALL: case COMPLETE_ANY: case COMPLETE_SOME:
         result = completion_call(k, fn, args, a);
         break;
      case REQUEST_FREE: {
         Request* r = find_request(*AT(requests, MPI_Request*), AT(requests, MPI_Request*));
         if (r) remove_request(r);
         forget_persistent(*AT(requests, MPI_Request*));
         CALL_ORIGINAL(result, a);
         break;
      }
      case COMM_NEW:
         CALL_ORIGINAL(result, a);
         if (result == MPI_SUCCESS) register_comm(*(MPI_Comm*)a[k->at.newcomm]);
         break;
      case COMM_FREE:
         forget_comm(*AT(freed, MPI_Comm*));
         CALL_ORIGINAL(result, a);
         break;
      case NEIGHBOR_ALLGATHER: case NEIGHBOR_ALLGATHERV: case NEIGHBOR_ALLTOALL:
      case NEIGHBOR_ALLTOALLV: case NEIGHBOR_ALLTOALLW:
         CALL_ORIGINAL(result, a);
         if (result == MPI_SUCCESS)
            neighbour_call(k, args, c, k->at.request ? AT(request, MPI_Request*) : NULL);
         else opaque(k->name);
         break;
      default: /* collectives */
         CALL_ORIGINAL(result, a);
         collective_event(k, args, c, k->at.request ? AT(request, MPI_Request*) : NULL);
         break;
   }
   leave();
   return result;
}

const TrDialect tareador_mpi_dialect = {dialect_call};
