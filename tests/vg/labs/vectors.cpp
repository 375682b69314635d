// A course code in C++: a std::vector of main filled by one task and summed by the next, then a
// std::string of main upper-cased by one task and counted by the next: one true dependency
// each. At -O2 the vector's allocation is the standard library's code inlined into main, and at
// any level the string's characters are allocated inside libstdc++: still blocks of the
// program, not the library's own memory.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tareador.h"

double result;
long letters;

int main(int argc, char** argv)
{
   int n = argc > 1 ? std::atoi(argv[1]) : 1000;
   std::vector<double> values(n);
   std::string text;
   for (int k = 0; k < 100; k++) text += static_cast<char>('a' + k % 26);
   tareador_ON();
   tareador_start_task("fill");
   for (int k = 0; k < n; k++) values[k] = k * 0.5;
   tareador_end_task("fill");
   tareador_start_task("sum");
   double s = 0;
   for (int k = 0; k < n; k++) s += values[k];
   result = s;
   tareador_end_task("sum");
   tareador_start_task("upper");
   for (char& c : text) c = static_cast<char>(std::toupper(c));
   tareador_end_task("upper");
   tareador_start_task("count");
   for (char c : text) letters += c == 'A';
   tareador_end_task("count");
   tareador_OFF();
   std::printf("%g %ld\n", result, letters);
   return 0;
}
