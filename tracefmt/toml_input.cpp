// What toml++ 3.3.0 must not see (toml_input.h): a small tokenizer of TOML, which follows
// strings, comments, where values and keys start, and the arrays and inline tables that nest
// them, and stops at the first non-ASCII character where toml++ would misread it.
#include "tracefmt/toml_input.h"

#include <optional>

namespace tareador::trace {

namespace {

using Hazard = std::pair<std::uint64_t, std::string>;

bool non_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }

class HazardScanner {
 public:
  explicit HazardScanner(std::string_view text) : text_(text) {}

  Hazard run() {
    for (i_ = 0; i_ < text_.size(); ++i_) {
      char c = text_[i_];
      if (c == '\n') {
        newline();
        continue;
      }
      std::optional<Hazard> found;
      switch (in_) {
        case In::Code:
          found = code(c);
          break;
        case In::Comment:
          break;
        case In::Basic:
          if (c == '\\' && i_ + 1 < text_.size() && text_[i_ + 1] != '\n') ++i_;  // an escape
          else if (c == '"') in_ = In::Code;
          break;
        case In::Literal:
          if (c == '\'') in_ = In::Code;
          break;
        case In::MultiLiteral:
          if (opens('\'')) i_ += 2, in_ = In::Code;
          break;
        case In::MultiBasic:
          found = multi_basic(c);
          break;
      }
      if (found) return *found;
    }
    return {0, ""};
  }

 private:
  enum class In { Code, Comment, Basic, MultiBasic, Literal, MultiLiteral };

  bool opens(char quote) const { return text_.compare(i_, 3, std::string(3, quote)) == 0; }

  void newline() {
    ++line_;
    if (in_ == In::Comment || in_ == In::Basic || in_ == In::Literal) in_ = In::Code;
    if (in_ != In::Code) return;
    bare_ = false;
    if (nesting_.empty()) value_ = false, last_ = '\n';  // a new key (arrays go on)
  }

  std::optional<Hazard> code(char c) {
    if (bare_ && std::string_view(" \t\r,]}#").find(c) == std::string_view::npos) {
      if (non_ascii(c))
        return Hazard{line_,
                      "a non-ASCII character in a value that is not a string (TOML "
                      "allows them only in strings and comments)"};
      return std::nullopt;
    }
    bare_ = false;
    if (non_ascii(c))
      return Hazard{line_,
                    "a non-ASCII character outside a string or a comment (TOML allows "
                    "them only there)"};
    if (c == ' ' || c == '\t' || c == '\r') return std::nullopt;
    char before = last_;
    last_ = c;
    if (c == '#') {
      in_ = In::Comment;
    } else if (c == '"' || c == '\'') {
      // A value, or a part of a key where one may start.
      if (value_ || std::string_view("\n.{,[").find(before) != std::string_view::npos) {
        bool triple = opens(c);
        in_ = c == '"' ? (triple ? In::MultiBasic : In::Basic)
                       : (triple ? In::MultiLiteral : In::Literal);
        if (triple) i_ += 2;
        value_ = false;
      }
    } else if (c == '=') {
      value_ = true;
    } else if (c == '[' && value_) {
      nesting_ += '[';  // an array: its first value comes next
    } else if (c == '{' && value_) {
      nesting_ += '{', value_ = false;  // an inline table: a key comes next
    } else if (c == ']' || c == '}') {
      if (!nesting_.empty() && nesting_.back() == (c == ']' ? '[' : '{')) nesting_.pop_back();
      value_ = false;
    } else if (c == ',') {
      value_ = !nesting_.empty() && nesting_.back() == '[';
    } else if (value_) {
      bare_ = true, value_ = false;  // a number, a boolean, a date (or no value at all)
    }
    return std::nullopt;
  }

  std::optional<Hazard> multi_basic(char c) {
    if (opens('"')) {
      i_ += 2, in_ = In::Code;
      return std::nullopt;
    }
    if (c != '\\') return std::nullopt;
    std::size_t j = i_ + 1;
    while (j < text_.size() && (text_[j] == ' ' || text_[j] == '\t' || text_[j] == '\r')) ++j;
    if (j < text_.size() && text_[j] == '\n') {  // a line-ending backslash: blanks go
      std::uint64_t at = line_;
      while (j < text_.size() &&
             std::string_view(" \t\r\n").find(text_[j]) != std::string_view::npos)
        at += text_[j++] == '\n';
      if (j < text_.size() && non_ascii(text_[j]))
        return Hazard{at,
                      "a non-ASCII character right after a line-ending backslash (toml++ "
                      "3.3.0, which reads this file, mishandles it: escape it as \\uXXXX)"};
      line_ = at;
      i_ = j - 1;
    } else if (j < text_.size() && non_ascii(text_[j])) {  // toml++ asks if it is a blank
      return Hazard{line_,
                    "a non-ASCII character right after a backslash in a multi-line "
                    "string (toml++ 3.3.0, which reads this file, mishandles it)"};
    } else {
      ++i_;  // an escape
    }
    return std::nullopt;
  }

  std::string_view text_;
  std::size_t i_ = 0;
  In in_ = In::Code;
  std::uint64_t line_ = 1;
  std::string nesting_;  // the arrays '[' and inline tables '{' open here
  bool value_ = false;   // a value starts next (after '=', in an array)
  bool bare_ = false;    // in a value that is not a string, array or table: toml++ reads on
                         // until a blank, a comma, a closing bracket or a comment
  char last_ = '\n';     // the last character of code that is not a blank ('\n': none)
};

}  // namespace

std::pair<std::uint64_t, std::string> toml_hazard(std::string_view text) {
  if (std::uint64_t line = first_invalid_utf8_line(text))
    return {line, "not valid UTF-8 (a TOML file is UTF-8 text)"};
  return HazardScanner(text).run();
}

}  // namespace tareador::trace
