// Buffered text output with hand-made decimal formatting: the Paraver writer's hot path.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "tareador/trace.h"

namespace tareador::trace {

// "00" to "99".
inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// r / 100 for r < 43,699.
inline std::uint32_t hundreds(std::uint32_t r) { return (r * 5243) >> 19; }

// Writes v in decimal at p; returns the end.
char* format_decimal(char* p, std::uint64_t v);

// The decimal text of the last number of a field, kept to write the next: the times of records
// in time order are often equal, and else most often share all but their last four digits.
class NumberText {
 public:
  static constexpr std::size_t kMaxSize = 24;  // what put() writes (20 digits at most)

  // Writes v at p (kMaxSize bytes, of which the text); returns the end of the text.
  char* put(char* p, std::uint64_t v) {
    if (v != value_) update(v);
    std::memcpy(p, text_, kMaxSize);
    return p + size_;
  }

 private:
  void update(std::uint64_t v) {
    std::uint64_t high = v / 10000;
    if (high == high_ && high != 0) {  // the same number of digits: rewrite the last four
      auto low = static_cast<std::uint32_t>(v - high * 10000), h = hundreds(low);
      std::memcpy(text_ + size_ - 4, kDigitPairs + 2 * h, 2);
      std::memcpy(text_ + size_ - 2, kDigitPairs + 2 * (low - h * 100), 2);
    } else {
      size_ = static_cast<std::uint8_t>(format_decimal(text_, v) - text_);
      high_ = high;
    }
    value_ = v;
  }
  std::uint64_t value_ = 0, high_ = 0;
  std::uint8_t size_ = 1;
  char text_[kMaxSize] = "0";
};

// Buffered output. The buffer has slack past its flush mark: single characters go in
// unchecked, numbers and text check after.
class TextOut {
 public:
  static constexpr std::size_t kSlack = 4096;  // bytes that may be written past the flush mark

  explicit TextOut(const std::string& path)
      : path_(path), file_(std::fopen(path.c_str(), "wb")), buffer_(new char[kSize + kSlack]) {
    if (!file_) throw FormatError(path, 0, "cannot create file");
    at_ = buffer_.get();
  }
  ~TextOut() {
    if (file_) std::fclose(file_);
  }
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  void put(std::string_view text) {
    while (text.size() > kSlack) {  // long text: in pieces
      put(text.substr(0, kSlack));
      text.remove_prefix(kSlack);
    }
    std::memcpy(at_, text.data(), text.size());
    at_ += text.size();
    flush_if_full();
  }
  void put(char c) { *at_++ = c; }
  void number(std::uint64_t v) {
    at_ = format_decimal(at_, v);
    flush_if_full();  // lists of numbers (headers, lines of many events) grow field by field
  }
  void end_line() {
    put('\n');
    flush_if_full();
  }
  // Direct writing, for text formatted whole: up to kSlack bytes may be written from cursor()
  // before advance() moves past them.
  char* cursor() { return at_; }
  void advance(char* end) {
    at_ = end;
    flush_if_full();
  }
  void close() {
    flush();
    bool failed = std::ferror(file_) != 0;
    failed |= std::fclose(file_) != 0;
    file_ = nullptr;
    if (failed) throw FormatError(path_, 0, "write error");
  }

 private:
  static constexpr std::size_t kSize = 1 << 20;
  void flush_if_full() {
    if (at_ >= buffer_.get() + kSize) flush();
  }
  void flush() {
    std::size_t n = static_cast<std::size_t>(at_ - buffer_.get());
    if (n && std::fwrite(buffer_.get(), 1, n, file_) != n)
      throw FormatError(path_, 0, "write error");
    at_ = buffer_.get();
  }
  std::string path_;
  std::FILE* file_;
  std::unique_ptr<char[]> buffer_;
  char* at_;
};

}  // namespace tareador::trace
