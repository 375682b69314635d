// fields.h — splitting a record line into fields and parsing them, with errors that say which
// field of which line is wrong (internal to tracefmt).
//
// This is the innermost loop of every trace reader, so numbers are parsed by hand: decimal
// digits straight from the line, with std::from_chars only for what the fast paths do not cover.
#pragma once

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "tareador/trace.h"
#include "tracefmt/line_reader.h"
#include "tracefmt/utf8.h"

namespace tareador::trace {

// The fast path of parse_decimal, exact: digits[.digits] with at most 15 significant digits is
// m / 10^k with m < 2^53 and k <= 22, both exact doubles, so one division rounds correctly.
// Reads from `p` (not past `end`) to the first byte that is not part of such a number and
// returns it; nullptr when there is no number there or it is one this path does not read
// ("5.", more digits).
inline const char* exact_decimal(const char* p, const char* end, double& value) {
  static constexpr double kPowersOfTen[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                              1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                              1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr std::uint64_t k15Digits = 1'000'000'000'000'000;  // a mantissa this large has 16
  const char* start = p;
  std::uint64_t mantissa = 0;
  // Digits up to `stop`, and past the 15th significant one only the 16th (which rejects it).
  auto read_digits = [&](const char* stop) {
    for (unsigned d; p < stop && (d = static_cast<unsigned char>(*p) - unsigned{'0'}) < 10 &&
                     mantissa < k15Digits;
         ++p)
      mantissa = mantissa * 10 + d;
  };
  read_digits(end);
  std::ptrdiff_t scale = 0;
  if (p < end && *p == '.') {
    const char* fraction = ++p;
    read_digits(end - fraction > 22 ? fraction + 22 : end);
    scale = p - fraction;
  }
  if (p == start || mantissa >= k15Digits || p[-1] == '.') return nullptr;
  // (below 2^63: converted as a signed integer, one instruction)
  value = static_cast<double>(static_cast<std::int64_t>(mantissa)) / kPowersOfTen[scale];
  return p;
}

// Parses all of `text` as a finite number (what strtod accepts, e.g. 1e-5); false if it is not
// one (inf, nan and numbers past the range of a double are not).
inline bool parse_decimal(std::string_view text, double& value) {
  const char* end = text.data() + text.size();
  if (!text.empty() && exact_decimal(text.data(), end, value) == end) return true;
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && stop == end && !text.empty() && std::isfinite(value);
}

// What is wrong with `text`, which parse_decimal refused: "is not a number", "is not a finite
// number" (inf, nan) or "is out of range" (past a double's range).
inline const char* number_problem(std::string_view text) {
  double value = 0;
  auto [stop, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || stop != text.data() + text.size()) return "is not a number";
  if (ec == std::errc::result_out_of_range) return "is out of range";
  return ec == std::errc() && !std::isfinite(value) ? "is not a finite number" : "is not a number";
}

// Walks the `separator`-separated fields of the line `reader` returned last. Parse errors throw
// FormatError at that line.
class Fields {
 public:
  Fields(std::string_view line, char separator, const LineReader& reader)
      : at_(line.data()), end_(line.data() + line.size()), separator_(separator), reader_(reader) {}

  bool done() const { return exhausted_; }

  std::string_view text(const char* name) {
    if (exhausted_) fail(std::string("missing field '") + name + "'");
    const char* cut = static_cast<const char*>(
        std::memchr(at_, separator_, static_cast<std::size_t>(end_ - at_)));
    std::string_view field(at_, static_cast<std::size_t>((cut ? cut : end_) - at_));
    take(cut);
    return field;
  }

  // A name: a field as it is, or a quoted string with TOML's basic-string escapes (\" \\ \t \n
  // \uXXXX), which may hold blanks. Either must be valid UTF-8.
  std::string name(const char* name) {
    if (exhausted_) fail(std::string("missing field '") + name + "'");
    std::string value;
    if (*at_ != '"') {
      value = std::string(text(name));
    } else {
      const char* p = at_ + 1;
      for (; p < end_ && *p != '"'; ++p) {
        if (*p != '\\') {
          value += *p;
          continue;
        }
        if (++p == end_) break;
        switch (*p) {
          case '"':
          case '\\':
            value += *p;
            break;
          case 't':
            value += '\t';
            break;
          case 'n':
            value += '\n';
            break;
          case 'u':
            value += unicode_escape(p, name);
            break;
          default:
            fail(std::string("field '") + name + "' has an unknown escape '\\" + *p + "'");
        }
      }
      if (p == end_) fail(std::string("field '") + name + "': the quoted string does not end");
      ++p;
      if (p != end_ && *p != separator_)
        fail(std::string("field '") + name + "': text after the closing quote");
      take(p == end_ ? nullptr : p);
    }
    if (!valid_utf8(value)) fail(std::string("field '") + name + "' is not valid UTF-8");
    return value;
  }

  template <typename Int>
  [[gnu::always_inline]] inline Int integer(const char* name) {
    static_assert(std::is_integral_v<Int>);
    if (exhausted_) fail(std::string("missing field '") + name + "'");
    // Fast path: an optional '-', up to 18 digits, then the separator or the end of the line.
    const char* p = at_;
    bool negative = std::is_signed_v<Int> && p < end_ && *p == '-';
    if (negative) ++p;
    const char* digits = p;
    std::uint64_t value = 0;
    while (p < end_ && static_cast<unsigned>(*p - '0') < 10u && p - digits < 18)
      value = value * 10 + static_cast<unsigned>(*p++ - '0');
    if (p != digits && (p == end_ || *p == separator_) && fits<Int>(value, negative)) {
      take(p == end_ ? nullptr : p);
      return negative ? static_cast<Int>(-static_cast<std::int64_t>(value))
                      : static_cast<Int>(value);
    }
    return slow_integer<Int>(name);
  }

  // A non-negative integer (sizes, counts, ids that cannot be negative).
  template <typename Int>
  Int count(const char* name) {
    Int value = integer<Int>(name);
    if (value < 0) fail(std::string("field '") + name + "' is negative: " + std::to_string(value));
    return value;
  }

  double real(const char* name) {
    std::string_view field = text(name);
    double value = 0;
    if (!parse_decimal(field, value))
      fail(std::string("field '") + name + "' " + number_problem(field) + ": " + excerpt(field));
    return value;
  }

  // Fails unless every field was consumed.
  void expect_end(const char* record) {
    if (!exhausted_)
      fail(std::string(record) + " has more fields than expected (" + std::to_string(index_) +
           " expected)");
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(reader_.file().path(), reader_.line_number(), message);
  }

 private:
  // The character of a \uXXXX escape starting at p[1] as UTF-8 (p is left on its last digit).
  std::string unicode_escape(const char*& p, const char* name) {
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      if (++p == end_ || !std::isxdigit(static_cast<unsigned char>(*p)))
        fail(std::string("field '") + name + "' has a \\u escape without 4 hex digits");
      code = code * 16 +
             static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(*p))
                                       ? *p - '0'
                                       : (std::tolower(static_cast<unsigned char>(*p)) - 'a' + 10));
    }
    if (code >= 0xD800 && code <= 0xDFFF)
      fail(std::string("field '") + name + "' escapes a surrogate");
    std::string out;
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
    return out;
  }

  template <typename Int>
  static bool fits(std::uint64_t value, bool negative) {
    if (negative) return value <= static_cast<std::uint64_t>(std::numeric_limits<Int>::max()) + 1;
    return value <= static_cast<std::uint64_t>(std::numeric_limits<Int>::max());
  }

  // Moves past the field that ends at `cut` (the separator; nullptr = end of line).
  void take(const char* cut) {
    ++index_;
    if (cut == nullptr) {
      exhausted_ = true;
      at_ = end_;
    } else {
      at_ = cut + 1;
    }
  }

  template <typename Int>
  Int slow_integer(const char* name) {
    std::string_view field = text(name);
    Int value{};
    auto [stop, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec == std::errc::result_out_of_range)
      fail(std::string("field '") + name + "' is out of range: " + excerpt(field));
    if (ec != std::errc() || stop != field.data() + field.size() || field.empty())
      fail(std::string("field '") + name + "' is not an integer: " + excerpt(field));
    return value;
  }

  const char* at_;
  const char* end_;
  char separator_;
  const LineReader& reader_;
  bool exhausted_ = false;
  int index_ = 0;
};

}  // namespace tareador::trace
