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

// Writes v in decimal at p; returns the end.
char* format_decimal(char* p, std::uint64_t v);

// Buffered output. The buffer has slack past its flush mark: single characters go in
// unchecked, numbers and text check after.
class TextOut {
 public:
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
  // Unchecked, as put(char): a piece of a line of at most kCopy bytes, from a buffer of at
  // least kCopy bytes; copying a fixed size spares a variable-length copy's start-up cost.
  template <std::size_t kCopy>
  void put_short(std::string_view text) {
    std::memcpy(at_, text.data(), kCopy);
    at_ += text.size();
  }
  void number(std::uint64_t v) {
    at_ = format_decimal(at_, v);
    flush_if_full();  // lists of numbers (headers, lines of many events) grow field by field
  }
  void signed_number(std::int64_t v) {
    if (v < 0) {
      put('-');
      number(static_cast<std::uint64_t>(-(v + 1)) + 1);
    } else {
      number(static_cast<std::uint64_t>(v));
    }
  }
  void field(std::uint64_t v) {
    put(':');
    number(v);
  }
  void end_line() {
    put('\n');
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
  static constexpr std::size_t kSize = 1 << 20, kSlack = 4096;
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
