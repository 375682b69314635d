// A course code in C++: a std::vector of main filled by one task and summed by the next, one
// true dependency. At -O2 the vector's allocation is the standard library's code inlined into
// main: still a block of the program (named new@main), not the library's own memory.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tareador.h"

double result;

int main(int argc, char** argv)
{
   int n = argc > 1 ? std::atoi(argv[1]) : 1000;
   std::vector<double> values(n);
   tareador_ON();
   tareador_start_task("fill");
   for (int k = 0; k < n; k++) values[k] = k * 0.5;
   tareador_end_task("fill");
   tareador_start_task("sum");
   double s = 0;
   for (int k = 0; k < n; k++) s += values[k];
   result = s;
   tareador_end_task("sum");
   tareador_OFF();
   std::printf("%g\n", result);
   return 0;
}
