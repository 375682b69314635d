/* set_layout.h — the files of a trace set (docs/trace-format.md), named in one place: the tool
   (C, without libc) writes them with these formats, the readers, the reports and the viewer
   (C++) find them through the functions of tareador/trace.h that use them. Plain C: macros of
   printf formats, nothing else. */
#ifndef TAREADOR_SET_LAYOUT_H
#define TAREADOR_SET_LAYOUT_H

#define TR_SET_MANIFEST "manifest.toml"      /* the set */
#define TR_SET_RANK_MANIFEST "rank-%d.toml"  /* rank */
#define TR_SET_LOCK "rank-%d.lock"           /* rank, while a process writes it: its pid */
#define TR_SET_STREAM "%s.%d.trc"            /* kind, rank */
#define TR_SET_PATTERNS "patterns.%d.txt"    /* rank (the overlap study) */
#define TR_SET_POTENTIAL "potential.%d.txt"  /* rank (--potential-tasks) */
#define TR_SET_TASKGRAPH "taskgraph.%d.%s"   /* rank, extension: dot, svg, png */
#define TR_SET_TASKREPORT "taskreport.%d.%s" /* rank, extension: txt, json */
#define TR_SET_COMM "comm.%d.txt"            /* rank (--comm: producer->consumer) */
#define TR_SET_THREADS "threadcomm.%d.txt"   /* rank (--thread-comm) */
#define TR_SET_REPLAYS "replay"              /* the replays kept in the set: KIND.prv, .json */

#endif
