// Decimal formatting for TextOut.
#include "text_out.h"

namespace tareador::trace {

char* format_decimal(char* p, std::uint64_t v) {
  if (v < 10) {  // most fields of a record line: rows, CPUs, states
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  static constexpr std::uint64_t kPowers[20] = {1ull,
                                                10ull,
                                                100ull,
                                                1000ull,
                                                10000ull,
                                                100000ull,
                                                1000000ull,
                                                10000000ull,
                                                100000000ull,
                                                1000000000ull,
                                                10000000000ull,
                                                100000000000ull,
                                                1000000000000ull,
                                                10000000000000ull,
                                                100000000000000ull,
                                                1000000000000000ull,
                                                10000000000000000ull,
                                                100000000000000000ull,
                                                1000000000000000000ull,
                                                10000000000000000000ull};
  // Digits from the bit length: log10(2) ~ 1233 / 4096, corrected by one comparison.
  int guess = ((64 - __builtin_clzll(v)) * 1233) >> 12;
  char* end = p + guess + (v >= kPowers[guess]);
  p = end;  // written backwards, four digits at a time
  while (v >= 10000) {
    std::uint64_t q = v / 10000;
    auto r = static_cast<std::uint32_t>(v - q * 10000);
    std::uint32_t high = hundreds(r);
    p -= 4;
    std::memcpy(p, kDigitPairs + 2 * high, 2);
    std::memcpy(p + 2, kDigitPairs + 2 * (r - high * 100), 2);
    v = q;
  }
  auto r = static_cast<std::uint32_t>(v);
  if (r >= 100) {
    std::uint32_t high = hundreds(r);
    p -= 2;
    std::memcpy(p, kDigitPairs + 2 * (r - high * 100), 2);
    r = high;
  }
  if (r >= 10) {
    std::memcpy(p - 2, kDigitPairs + 2 * r, 2);
  } else {
    p[-1] = static_cast<char>('0' + r);
  }
  return end;
}

}  // namespace tareador::trace
