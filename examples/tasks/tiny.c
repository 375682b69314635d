/* tiny — the smallest program that exercises every part of the dependency tracking, for the
   tool's exact-graph regression test: a global array, a heap buffer, nested tasks, a disabled
   object, and accesses that give read-after-write, write-after-read and write-after-write
   pairs. Every task touches whole, distinct 4-byte ints, so the expected graph can be derived by
   hand from the table below. Usage: tiny (no arguments). Prints "tiny: ok ..." and exits 0.

   Objects (all accesses are between tareador_ON and tareador_OFF):
     g        static int g[4], 16 bytes (a global; named g from the debug info)
     h        int[4] from malloc, 16 bytes (a heap block allocated by main inside the traced
              region, at the malloc line below)
     counter  static long counter, 8 bytes: every task reads and writes it (counter++), but it
              is disabled (tareador_disable_object) before any task runs and never enabled
              again, so it makes no dependency at all (enabled, it would chain all six tasks
              that touch it: init_g -> init_h -> inner#1 -> inner#2 -> consume -> overwrite)

   Instances, in creation order (instance 1 is the implicit main task, which itself touches
   none of g, h, counter inside the traced region; the pointer h lives in a register or in
   main's stack frame):
     #  type       nested in  reads              writes                  counter
     2  init_g     main       -                  g[0..3]                 r/w (disabled)
     3  init_h     main       -                  h[0..3]                 r/w (disabled)
     4  outer      main       g[3]               -                       -
     5  inner      outer(4)   g[0..1]            h[0..1]                 r/w (disabled)
     6  inner      outer(4)   h[2..3]            g[2..3]                 r/w (disabled)
     7  consume    main       h[0..1], g[2..3]   -                       r/w (disabled)
     8  overwrite  main       -                  g[0..1]                 r/w (disabled)
   (outer reads g[3] itself, before it creates its two inner tasks: code of a task outside its
   nested tasks belongs to it.)

   Expected graph with --deps=raw (the default): 5 edges, all read-after-write
     2 init_g  -> 4 outer     RAW  g  4 bytes  (g[3])
     2 init_g  -> 5 inner     RAW  g  8 bytes  (g[0..1])
     3 init_h  -> 6 inner     RAW  h  8 bytes  (h[2..3])
     5 inner   -> 7 consume   RAW  h  8 bytes  (h[0..1])
     6 inner   -> 7 consume   RAW  g  8 bytes  (g[2..3])
   overwrite (8) has no incoming edge and nothing depends on it; outer (4) has no outgoing
   edge (it writes nothing).

   Expected graph with --deps=raw+war+waw: the 5 edges above plus 4 more, 9 edges
     3 init_h  -> 5 inner     WAW  h  8 bytes  (h[0..1]: written by init_h, then by inner#1)
     2 init_g  -> 6 inner     WAW  g  8 bytes  (g[2..3]: written by init_g, then by inner#2)
     2 init_g  -> 8 overwrite WAW  g  8 bytes  (g[0..1]: last written by init_g)
     5 inner   -> 8 overwrite WAR  g  8 bytes  (g[0..1]: last read by inner#1)
   and one pair that is NOT an edge: outer (4) reads g[3] and inner#2 (6) then writes it, a
   write-after-read on an instance that is still open (6 runs inside 4), which creation order
   already implies. No edge in either graph goes through counter (disabled), and none from or to
   the main task. Every edge joins a distinct pair of instances and carries one object and one
   kind (5 and 8 are joined by WAR only: overwrite writes g[0..1] without reading them).

   Assumed of the tool: the stack (return addresses, spills, the client requests' argument
   blocks) makes no dependency; malloc's own bookkeeping is not client memory. */
#include <stdio.h>
#include <stdlib.h>

#include "tareador.h"

static int g[4];
static long counter;

#define NOINLINE __attribute__((noinline))

static NOINLINE void init_g(void)
{
   for (int i = 0; i < 4; i++) g[i] = i + 1;
   counter++;
}

static NOINLINE void init_h(int* h)
{
   for (int i = 0; i < 4; i++) h[i] = 10 * (i + 1);
   counter++;
}

static NOINLINE void inner_first(int* h)
{
   h[0] = g[0] + 100;
   h[1] = g[1] + 100;
   counter++;
}

static NOINLINE void inner_second(int* h)
{
   g[2] = h[2] + 1000;
   g[3] = h[3] + 1000;
   counter++;
}

static NOINLINE int read_g3(void)
{
   return *(volatile int*)&g[3];
}

static NOINLINE int consume(const int* h)
{
   counter++;
   return h[0] + h[1] + g[2] + g[3];
}

static NOINLINE void overwrite(void)
{
   g[0] = -1;
   g[1] = -2;
   counter++;
}

int main(void)
{
   int seen, consumed;
   tareador_ON();
   tareador_disable_object(&counter);
   int* h = malloc(4 * sizeof(int));
   if (h == NULL) return 1;

   tareador_start_task("init_g");
   init_g();
   tareador_end_task("init_g");

   tareador_start_task("init_h");
   init_h(h);
   tareador_end_task("init_h");

   tareador_start_task("outer");
   seen = read_g3();
   tareador_start_task("inner");
   inner_first(h);
   tareador_end_task("inner");
   tareador_start_task("inner");
   inner_second(h);
   tareador_end_task("inner");
   tareador_end_task("outer");

   tareador_start_task("consume");
   consumed = consume(h);
   tareador_end_task("consume");

   tareador_start_task("overwrite");
   overwrite();
   tareador_end_task("overwrite");
   tareador_OFF();

   /* g = {-1, -2, 1030, 1040}, h = {101, 102, 30, 40}, seen = 4,
      consumed = 101 + 102 + 1030 + 1040 = 2273, counter = 6 */
   int ok = g[0] == -1 && g[1] == -2 && g[2] == 1030 && g[3] == 1040 && h[0] == 101 &&
            h[1] == 102 && h[2] == 30 && h[3] == 40 && seen == 4 && consumed == 2273 &&
            counter == 6;
   printf("tiny: %s (consumed %d, counter %ld)\n", ok ? "ok" : "WRONG", consumed, counter);
   free(h);
   return ok ? 0 : 1;
}
