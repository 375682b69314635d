// fields.h — splitting a record line into fields and parsing them, with errors that say which
// field of which line is wrong (internal to tracefmt).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "line_reader.h"
#include "tracefmt.h"

namespace tareador::trace {

// Walks the `separator`-separated fields of the line `reader` returned last. Parse errors throw
// FormatError at that line.
class Fields {
 public:
  Fields(std::string_view line, char separator, const LineReader& reader)
      : rest_(line), separator_(separator), reader_(reader) {}

  bool done() const { return exhausted_; }

  std::string_view text(const char* name) {
    if (exhausted_) fail(std::string("missing field '") + name + "'");
    std::size_t cut = rest_.find(separator_);
    std::string_view field = rest_.substr(0, cut);
    if (cut == std::string_view::npos) {
      exhausted_ = true;
      rest_ = {};
    } else {
      rest_.remove_prefix(cut + 1);
    }
    ++index_;
    return field;
  }

  template <typename Int>
  Int integer(const char* name) {
    std::string_view field = text(name);
    Int value{};
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size() || field.empty())
      fail(std::string("field '") + name + "' is not an integer: '" + std::string(field) + "'");
    return value;
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
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (ec != std::errc() || end != field.data() + field.size() || field.empty())
      fail(std::string("field '") + name + "' is not a number: '" + std::string(field) + "'");
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
  std::string_view rest_;
  char separator_;
  const LineReader& reader_;
  bool exhausted_ = false;
  int index_ = 0;
};

}  // namespace tareador::trace
