// toml_input.h — reading a TOML input file the way every reader of the project does (internal to
// the tracefmt and replay libraries): a regular file of bounded size (read_input_file), checked
// to be valid UTF-8 before toml++ sees it (toml++ 3.3.0, Debian's, has undefined behaviour on
// some malformed UTF-8), errors as FormatError at the line.
#pragma once

#include <toml++/toml.h>

#include <string>

#include "tracefmt.h"

namespace tareador::trace {

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
  if (std::uint64_t line = first_invalid_utf8_line(text))
    throw FormatError(path, line, "not valid UTF-8 (a TOML file is UTF-8 text)");
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    std::string description(e.description());
    if (description.size() > 200) description = description.substr(0, 200) + "...";
    throw TomlSyntaxError(path, e.source().begin.line, description);
  }
}

}  // namespace tareador::trace
