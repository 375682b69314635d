// toml_input.h — reading a TOML input file the way every reader of the project does (internal to
// the tracefmt and replay libraries): a regular file of bounded size (read_input_file), checked
// before toml++ sees it, errors as FormatError at the line.
//
// The check: toml++ 3.3.0 (Debian's) reaches code it declares unreachable (undefined behaviour)
// on some non-ASCII text where TOML allows none: a non-ASCII character outside a string or a
// comment (`a = 1 §`), in a quoted string where no string can start (`a = 2'§'`: the
// look-ahead of the value `2` reads on through quotes), or after a backslash (and blanks, and
// newlines for a line-ending one) in a multi-line string; and its UTF-8 decoder misbehaves on
// malformed UTF-8 (fixed upstream after 3.3.0). So the text must be valid UTF-8, with non-ASCII
// characters only in comments and in strings where TOML starts a string (a value, or a quoted
// key), never right after a line-ending backslash; anything else is refused here with its
// line, as TOML would refuse it.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>
#include <utility>

#include "tareador/trace.h"

namespace tareador::trace {

// The line and the reason of the first thing in `text` toml++ 3.3.0 must not see; {0, ""} if
// none. A small tokenizer of TOML: strings, comments, where values and keys start, and the
// arrays and inline tables that nest them.
inline std::pair<std::uint64_t, std::string> toml_hazard(std::string_view text) {
  if (std::uint64_t line = first_invalid_utf8_line(text))
    return {line, "not valid UTF-8 (a TOML file is UTF-8 text)"};
  enum class In { Code, Comment, Basic, MultiBasic, Literal, MultiLiteral };
  In in = In::Code;
  std::uint64_t line = 1;
  std::string nesting;        // the arrays '[' and inline tables '{' open here
  bool value = false;         // a value starts next (after '=', in an array)
  bool bare = false;          // in a value that is not a string, array or table: toml++ reads
                              // on until a blank, a comma, a closing bracket or a comment
  char last = '\n';           // the last character of code that is not a blank ('\n': none)
  auto opens = [&](std::size_t i, char quote) {  // three quotes at i
    return text.compare(i, 3, std::string(3, quote)) == 0;
  };
  auto non_ascii = [](char c) { return static_cast<unsigned char>(c) >= 0x80; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      if (in == In::Comment || in == In::Basic || in == In::Literal) in = In::Code;
      if (in != In::Code) continue;
      bare = false;
      if (nesting.empty()) value = false, last = '\n';  // a new key (arrays go on)
      continue;
    }
    switch (in) {
      case In::Code: {
        if (bare && std::string_view(" \t\r,]}#").find(c) == std::string_view::npos) {
          if (non_ascii(c))
            return {line, "a non-ASCII character in a value that is not a string (TOML allows "
                          "them only in strings and comments)"};
          continue;
        }
        bare = false;
        if (non_ascii(c))
          return {line, "a non-ASCII character outside a string or a comment (TOML allows "
                        "them only there)"};
        if (c == ' ' || c == '\t' || c == '\r') continue;
        char before = last;
        last = c;
        if (c == '#') {
          in = In::Comment;
        } else if (c == '"' || c == '\'') {
          // A value, or a part of a key where one may start.
          if (value || std::string_view("\n.{,[").find(before) != std::string_view::npos) {
            bool triple = opens(i, c);
            in = c == '"' ? (triple ? In::MultiBasic : In::Basic)
                          : (triple ? In::MultiLiteral : In::Literal);
            if (triple) i += 2;
            value = false;
          }
        } else if (c == '=') {
          value = true;
        } else if (c == '[' && value) {
          nesting += '[';  // an array: its first value comes next
        } else if (c == '{' && value) {
          nesting += '{', value = false;  // an inline table: a key comes next
        } else if (c == ']' || c == '}') {
          if (!nesting.empty() && nesting.back() == (c == ']' ? '[' : '{')) nesting.pop_back();
          value = false;
        } else if (c == ',') {
          value = !nesting.empty() && nesting.back() == '[';
        } else if (value) {
          bare = true, value = false;  // a number, a boolean, a date (or no value at all)
        }
        break;
      }
      case In::Comment: break;
      case In::Basic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') ++i;  // an escape
        else if (c == '"') in = In::Code;
        break;
      case In::Literal:
        if (c == '\'') in = In::Code;
        break;
      case In::MultiLiteral:
        if (opens(i, '\'')) i += 2, in = In::Code;
        break;
      case In::MultiBasic:
        if (opens(i, '"')) {
          i += 2, in = In::Code;
        } else if (c == '\\') {
          std::size_t j = i + 1;
          while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j;
          if (j < text.size() && text[j] == '\n') {  // a line-ending backslash: blanks go
            std::uint64_t at = line;
            while (j < text.size() && std::string_view(" \t\r\n").find(text[j]) != std::string_view::npos)
              at += text[j++] == '\n';
            if (j < text.size() && non_ascii(text[j]))
              return {at, "a non-ASCII character right after a line-ending backslash (toml++ "
                          "3.3.0, which reads this file, mishandles it: escape it as \\uXXXX)"};
            line = at;
            i = j - 1;
          } else if (j < text.size() && non_ascii(text[j])) {  // toml++ asks if it is a blank
            return {line, "a non-ASCII character right after a backslash in a multi-line string "
                          "(toml++ 3.3.0, which reads this file, mishandles it)"};
          } else {
            ++i;  // an escape
          }
        }
        break;
    }
  }
  return {0, ""};
}

// A syntax error of a TOML file, at its line: what toml++ says of it (cut short).
class TomlSyntaxError : public FormatError {
 public:
  TomlSyntaxError(const std::string& path, std::uint64_t line, const std::string& description)
      : FormatError(path, line, description), description_(description) {}
  const std::string& description() const { return description_; }

 private:
  std::string description_;
};

// `what` names the file in the size error ("a manifest is at most ... bytes").
inline toml::table parse_toml_input(const std::string& path, const char* what) {
  std::string text = read_input_file(path, kMaxSmallFileBytes, what);
  auto [line, hazard] = toml_hazard(text);
  if (line) throw FormatError(path, line, hazard);
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw TomlSyntaxError(path, e.source().begin.line, clipped(e.description(), 200));
  }
}

}  // namespace tareador::trace
