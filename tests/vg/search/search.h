/* search.h — the test programs of tests/vg/search.sh are sequential C; built with -DANNOTATE
   the same source carries the task annotations of the decomposition the search must find
   (one task per kernel call), and the whole of main is traced, as the potential tasks are. */
#ifndef SEARCH_TEST_H
#define SEARCH_TEST_H

#ifdef ANNOTATE
#include "tareador.h"
#define TASK(name, call)           \
   do {                            \
      tareador_start_task(name);   \
      call;                        \
      tareador_end_task(name);     \
   } while (0)
#define TRACE_ON() tareador_ON()
#define TRACE_OFF() tareador_OFF()
#else
#define TASK(name, call) call
#define TRACE_ON()
#define TRACE_OFF()
#endif

/* Kernels stay calls (potential tasks) at any optimisation level. */
#define KERNEL static __attribute__((noinline))

#endif
