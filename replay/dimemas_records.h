// dimemas_records.h — the record lines of Dimemas configuration files ("name" {field, field,
// [n] {a,b}, ...};;), scanned into fields and checked against a record's layout (internal to
// replay/; config_dimemas.cpp gives the layouts and their meaning).
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "replay/machine_readers.h"
#include "tareador/trace.h"
#include "tracefmt/utf8.h"

namespace tareador::replay::dimemas {

using trace::FormatError;

// One field as written: a double-quoted string, a number, an array `[n] {a,b,c}`, or a bare
// word (the `<`, `&` ... of dedicated connections).
struct Value {
  enum class Kind { String, Integer, Real, Word, Array };
  Kind kind = Kind::Word;
  std::string source;        // the text of the field, for messages
  std::string text;          // String: without the quotes
  std::int64_t integer = 0;  // Integer
  double real = 0;           // Integer and Real
  std::vector<Value> items;  // Array
};

struct Record {
  std::string name;
  std::uint64_t line = 0;
  std::vector<Value> fields;
};

// Splits one record line into its name and fields. Unlike Dimemas (which stops at the first
// `}`), arrays may appear anywhere in the field list.
class RecordScanner {
 public:
  RecordScanner(std::string_view text, const std::string& path, std::uint64_t line)
      : text_(text), path_(path), line_(line) {}

  Record record() {
    Record record;
    record.line = line_;
    skip_spaces();
    if (!take('"')) fail("expected a record: \"<record name>\" {<fields>};; (or a // comment)");
    std::size_t close = text_.find('"', pos_);
    if (close == std::string_view::npos) fail("the record name has no closing '\"'");
    record.name = trace::clipped(text_.substr(pos_, close - pos_), 60);
    pos_ = close + 1;
    skip_spaces();
    if (!take('{')) fail("expected '{' after the record name \"" + record.name + "\"");
    record.fields = list();
    if (!take(';') || !take(';')) fail(kNotClosed);
    skip_spaces();
    if (pos_ < text_.size())
      fail("unexpected text after '};;': " + trace::excerpt(text_.substr(pos_)));
    return record;
  }

 private:
  static constexpr const char* kNotClosed =
      "the record is not closed by '};;' (a record must be on one line)";

  // Comma-separated values up to and including the closing '}'.
  std::vector<Value> list() {
    std::vector<Value> items;
    skip_spaces();
    if (take('}')) return items;
    while (true) {
      items.push_back(value());
      skip_spaces();
      if (take('}')) return items;
      if (pos_ == text_.size()) fail(kNotClosed);
      if (!take(','))
        fail("expected ',' or '}' after field " + std::to_string(items.size()) + ", found '" +
             text_[pos_] + "'");
    }
  }

  Value value() {
    skip_spaces();
    if (pos_ == text_.size()) fail(kNotClosed);
    std::size_t begin = pos_;
    Value value;
    struct Depth {  // arrays within arrays: Dimemas has none, a few levels are plenty
      int& depth;
      explicit Depth(int& d) : depth(d) { ++depth; }
      ~Depth() { --depth; }
    } depth(depth_);
    if (depth_ > kMaxDepth) fail("arrays nested more than " + std::to_string(kMaxDepth) + " deep");
    if (take('"')) {
      std::size_t close = text_.find('"', pos_);
      if (close == std::string_view::npos) fail("a string has no closing '\"'");
      value.kind = Value::Kind::String;
      value.text = std::string(text_.substr(pos_, close - pos_));
      if (!trace::valid_utf8(value.text)) fail("a string is not valid UTF-8");
      pos_ = close + 1;
    } else if (take('[')) {
      std::size_t close = text_.find(']', pos_);
      std::string_view count =
          trim(text_.substr(pos_, close == std::string_view::npos ? close : close - pos_));
      std::size_t declared = 0;
      auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), declared);
      if (close == std::string_view::npos || ec != std::errc() ||
          end != count.data() + count.size() || count.empty())
        fail("an array must start with its size: [n] {a,b,...}");
      pos_ = close + 1;
      skip_spaces();
      if (!take('{')) fail("expected '{' after the array size [" + std::to_string(declared) + "]");
      value.kind = Value::Kind::Array;
      value.items = list();
      if (value.items.size() != declared)
        fail("an array declares [" + std::to_string(declared) + "] elements but lists " +
             std::to_string(value.items.size()));
    } else {
      std::size_t end = text_.find_first_of(",}", pos_);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view word = trim(text_.substr(pos_, end - pos_));
      if (word.empty()) fail("empty field");
      pos_ = end;
      classify(word, value);
    }
    // What is written, for messages: short (an array holds its items' texts already).
    value.source = trace::clipped(trim(text_.substr(begin, pos_ - begin)), 60);
    return value;
  }

  static void classify(std::string_view word, Value& value) {
    const char* first = word.data();
    const char* last = word.data() + word.size();
    auto [int_end, int_ec] = std::from_chars(first, last, value.integer);
    if (int_ec == std::errc() && int_end == last) {
      value.kind = Value::Kind::Integer;
      value.real = static_cast<double>(value.integer);
      return;
    }
    auto [real_end, real_ec] = std::from_chars(first, last, value.real);
    value.kind = real_ec == std::errc() && real_end == last && std::isfinite(value.real)
                     ? Value::Kind::Real
                     : Value::Kind::Word;
    value.text = std::string(word);
  }

  void skip_spaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool take(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(path_, line_, message);
  }

  static constexpr int kMaxDepth = 8;

  std::string_view text_;
  const std::string& path_;
  std::uint64_t line_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

enum class FieldType {
  String,       // "text"
  Integer,      // any int
  Count,        // int >= 0
  Real,         // any number
  NonNegative,  // number >= 0
  IntArray,     // [n] {int, ...}
  Symbol,       // one of the characters in FieldSpec::symbols, unquoted
};

struct FieldSpec {
  const char* name;
  FieldType type;
  const char* symbols = nullptr;
};

using Layout = std::vector<FieldSpec>;

inline std::string field_names(const Layout& layout) {
  std::string names;
  for (const FieldSpec& spec : layout)
    names += (names.empty() ? "" : ", ") + std::string(spec.name);
  return names;
}

// A record checked against its layout: the accessors cannot fail.
class Fields {
 public:
  Fields(const Record& record, const Layout& layout, const std::string& path)
      : record_(record), layout_(layout), path_(path) {
    if (record.fields.size() != layout.size())
      fail("has " + std::to_string(record.fields.size()) + " fields, expected " +
           std::to_string(layout.size()) + " (" + field_names(layout) + ")");
    for (std::size_t i = 0; i < layout.size(); ++i) check(i);
  }

  const std::string& text(std::size_t i) const { return record_.fields[i].text; }
  int integer(std::size_t i) const { return static_cast<int>(record_.fields[i].integer); }
  double real(std::size_t i) const { return record_.fields[i].real; }
  std::vector<int> integers(std::size_t i) const {
    std::vector<int> values;
    for (const Value& item : record_.fields[i].items)
      values.push_back(static_cast<int>(item.integer));
    return values;
  }
  std::uint64_t line() const { return record_.line; }

  // "field N (name) must be <expected>, found <what was written>".
  [[noreturn]] void field_error(std::size_t i, const std::string& expected) const {
    fail("field " + std::to_string(i + 1) + " (" + layout_[i].name + ") must be " + expected +
         ", found " + record_.fields[i].source);
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(path_, record_.line, "\"" + record_.name + "\" " + message);
  }

 private:
  static bool is_int(const Value& value) {
    return value.kind == Value::Kind::Integer && value.integer >= std::numeric_limits<int>::min() &&
           value.integer <= std::numeric_limits<int>::max();
  }
  static bool is_number(const Value& value) {
    return value.kind == Value::Kind::Integer || value.kind == Value::Kind::Real;
  }

  void check(std::size_t i) const {
    const Value& value = record_.fields[i];
    switch (layout_[i].type) {
      case FieldType::String:
        if (value.kind != Value::Kind::String) field_error(i, "a double-quoted string");
        break;
      case FieldType::Integer:
        if (!is_int(value)) field_error(i, "an integer");
        break;
      case FieldType::Count:
        if (!is_int(value)) field_error(i, "an integer");
        if (value.integer < 0) field_error(i, "non-negative");
        break;
      case FieldType::Real:
        if (!is_number(value)) field_error(i, "a number");
        break;
      case FieldType::NonNegative:
        if (!is_number(value)) field_error(i, "a number");
        if (value.real < 0) field_error(i, "non-negative");
        break;
      case FieldType::IntArray:
        if (value.kind != Value::Kind::Array) field_error(i, "an array [n] {a,b,...}");
        for (const Value& item : value.items)
          if (!is_int(item)) field_error(i, "an array of integers");
        break;
      case FieldType::Symbol:
        if (value.kind != Value::Kind::Word || value.text.size() != 1 ||
            !std::strchr(layout_[i].symbols, value.text[0]))
          field_error(i, std::string("one of ") + layout_[i].symbols);
        break;
    }
  }

  const Record& record_;
  const Layout& layout_;
  const std::string& path_;
};

}  // namespace tareador::replay::dimemas
