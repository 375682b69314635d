// references — tasks that use C++ reference parameters (tests/vg/emit_source.sh): a vector
// filled by blocks, an array passed as `double (&)[N]` and a sum returned through `double&`.
// In an orphaned task a reference parameter is firstprivate by default (the task would fill a
// copy of what it refers to, and the caller's would stay zero): the annotated source must share
// the three; the parallel build must print what the sequential one does.
#include <cstdio>
#include <vector>

#include "tareador.h"

const int N = 4096;

void fill(std::vector<double>& v, int blocks)
{
   int size = (int)v.size() / blocks;
   for (int b = 0; b < blocks; b++) {
      tareador_start_task("fill");
      for (int i = b * size; i < (b + 1) * size; i++) v[i] = i;
      tareador_end_task("fill");
   }
}

void twice(const std::vector<double>& from, double (&to)[N], double& total)
{
   tareador_start_task("twice");
   for (int i = 0; i < N; i++) to[i] = 2 * from[i];
   tareador_end_task("twice");
   tareador_start_task("sum");
   for (int i = 0; i < N; i++) total += to[i];
   tareador_end_task("sum");
}

double doubled[N];

int main()
{
   std::vector<double> v(N, 0.0);
   double total = 0;
   tareador_ON();
   fill(v, 4);
   twice(v, doubled, total);
   tareador_OFF();
   double s = 0;
   for (double x : v) s += x;
   std::printf("sum %.0f, doubled %.0f\n", s, total);
   return 0;
}
