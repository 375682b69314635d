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
// none (toml_input.cpp).
std::pair<std::uint64_t, std::string> toml_hazard(std::string_view text);

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
