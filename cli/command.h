// command.h — how every command's main() ends: parse the options, run, and report what went
// wrong as "NAME: what" on stderr with the exit status users of the tools expect. Header-only
// (the commands include CLI11 already; the libraries do not).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>

#include "tareador/trace.h"

namespace tareador::cli {

inline constexpr int kExitBadInput = 1;  // a malformed input or option, or a file not written

// A stream that writes nowhere (for the processes of a launch that keep quiet).
inline std::ostream& quiet_stream() {
  static std::ostream nowhere(nullptr);
  return nowhere;
}

// Checks of numeric options whose message says the bound plainly (CLI11's PositiveNumber and
// NonNegativeNumber print the largest double as theirs). Text that is not a number passes
// here: the option's conversion says so.
inline CLI::Validator sign_check(bool zero_allowed) {
  return CLI::Validator(
      [zero_allowed](std::string& text) -> std::string {
        char* end = nullptr;
        double value = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return "";
        if (value > 0 || (zero_allowed && value == 0)) return "";
        return text + ": must be " + (zero_allowed ? "0 or more" : "more than 0");
      },
      zero_allowed ? "NUMBER >= 0" : "NUMBER > 0");
}
inline const CLI::Validator kPositive = sign_check(false);
inline const CLI::Validator kNonNegative = sign_check(true);

// Parses argv into `app` (--help and --version exit 0, a bad option 1, said after `name` as
// every other error is), then returns run()'s exit status; an exception out of run() is printed
// after `name` and exits kExitBadInput. A process that does not `speak` (one of many a launcher
// started, but the first) prints none of it: the output is one process's.
template <class Run>
int parse_and_run(CLI::App& app, int argc, char** argv, const char* name, Run&& run,
                  bool speaks = true) {
  std::ostream& err = speaks ? std::cerr : quiet_stream();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return speaks ? app.exit(e) : 0;  // --help, --version
    err << name << ": " << e.what() << " (" << name << " --help lists the options)\n";
    return kExitBadInput;
  }
  try {
    return run();
  } catch (const std::filesystem::filesystem_error& e) {
    err << name << ": " << e.path1().string() << ": " << trace::system_error_text(e.code().value())
        << "\n";
  } catch (const std::bad_alloc&) {
    err << name << ": out of memory\n";
  } catch (const std::exception& e) {
    err << name << ": " << e.what() << "\n";
  }
  return kExitBadInput;
}

}  // namespace tareador::cli
