// toml_input.h — reading a TOML input file the way every reader of the project does (internal to
// the tracefmt and replay libraries): a regular file of bounded size (read_input_file), checked
// before toml++ sees it, errors as FormatError at the line.
//
// The check: toml++ 3.3.0 (Debian's) reaches code it declares unreachable (undefined behaviour)
// on some non-ASCII text where TOML allows none: a non-ASCII character outside a string or a
// comment (`a = 1 §`), or as the first character a line-ending backslash leads to in a
// multi-line string; and its UTF-8 decoder misbehaves on malformed UTF-8 (fixed upstream after
// 3.3.0). So the text must be valid UTF-8, with non-ASCII characters only in strings and
// comments and never right after a line-ending backslash; anything else is refused here with
// its line, as TOML would refuse it.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>
#include <utility>

#include "tracefmt.h"

namespace tareador::trace {

// The line and the reason of the first thing in `text` toml++ 3.3.0 must not see; {0, ""} if
// none.
inline std::pair<std::uint64_t, std::string> toml_hazard(std::string_view text) {
  if (std::uint64_t line = first_invalid_utf8_line(text))
    return {line, "not valid UTF-8 (a TOML file is UTF-8 text)"};
  enum class In { Code, Comment, Basic, MultiBasic, Literal, MultiLiteral };
  In in = In::Code;
  std::uint64_t line = 1;
  auto opens = [&](std::size_t i, char quote) {  // three quotes at i
    return text.compare(i, 3, std::string(3, quote)) == 0;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool ascii = static_cast<unsigned char>(c) < 0x80;
    if (c == '\n') {
      ++line;
      if (in == In::Comment || in == In::Basic || in == In::Literal) in = In::Code;
      continue;
    }
    switch (in) {
      case In::Code:
        if (!ascii)
          return {line, "a non-ASCII character outside a string or a comment (TOML allows "
                        "them only there)"};
        if (c == '#') in = In::Comment;
        if (c == '"') in = opens(i, '"') ? (i += 2, In::MultiBasic) : In::Basic;
        if (c == '\'') in = opens(i, '\'') ? (i += 2, In::MultiLiteral) : In::Literal;
        break;
      case In::Comment: break;
      case In::Basic:
        if (c == '\\') ++i;  // an escape: the next character is the escaped one
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
            if (j < text.size() && static_cast<unsigned char>(text[j]) >= 0x80)
              return {at, "a non-ASCII character right after a line-ending backslash (toml++ "
                          "3.3.0, which reads this file, mishandles it: escape it as \\uXXXX)"};
            line = at;
            i = j - 1;
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
