/* tr_reservoir.h — which events of a stream to keep for a uniform random sample of a fixed size,
   without knowing the stream's length: reservoir sampling by Li's Algorithm L, which draws how
   many events to skip after each one kept, so that an event not kept costs one comparison
   ("Profiling of data-flow dependencies in Java programs using reservoir sampling", sec. 4).
   The caller keeps the samples; this says when to keep one and in which slot. */
#ifndef TR_RESERVOIR_H
#define TR_RESERVOIR_H

#include "pub_tool_basics.h"

typedef struct {
   ULong size;     /* slots */
   ULong seen;     /* events so far */
   ULong next;     /* the number of the next event to keep (1-based) */
   ULong filled;   /* slots holding a sample */
   double w;       /* Algorithm L's W */
   ULong random;   /* the generator's state (xorshift64*) */
} TrReservoir;

/* The sample size for a relative error `r` at confidence `z` (as z of the normal law) on an
   event class of fraction `fe` of all events: the n of eq. 5, r = z sqrt(fe (1 - fe) / (n - 1))
   / fe, so n = 1 + z^2 (1 - fe) / (r^2 fe), rounded up (the paper's 1,535,048 for z = 1.959964,
   95%; r = 0.05, fe = 0.001); at least 2. */
ULong tr_reservoir_size_for(double z, double r, double fe);

void tr_reservoir_init(TrReservoir* res, ULong size, ULong seed);

/* The slot of the event just counted, which is kept (tr_reservoir_offer's slow path). */
Long tr_reservoir_keep(TrReservoir* res);

/* For the next event of the stream: the slot to keep it in (which may hold an earlier one), or
   -1 when it is not kept. */
static inline Long tr_reservoir_offer(TrReservoir* res)
{
   if (++res->seen < res->next) return -1;
   return tr_reservoir_keep(res);
}

/* The relative error at confidence `z` of the fraction c/n of the n samples (eq. 5 of the
   paper: z sqrt(p (1 - p) / (n - 1)) / p); 0 when every event was kept. */
double tr_reservoir_error(const TrReservoir* res, ULong c, double z);

/* Decimal text with 6 digits of fraction (the tool's printf has no %f). */
void tr_reservoir_fixed6(HChar* out, double x);

#endif
