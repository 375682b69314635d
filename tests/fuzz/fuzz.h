// fuzz.h — what the fuzz harnesses share (tests/fuzz/README.md).
//
// Each harness is a function `int fuzz_NAME(const std::uint8_t* data, std::size_t size)` that
// feeds one input to a parser (and, where the parser leads there, to the simulation), as
// LLVMFuzzerTestOneInput does: built with clang and libFuzzer by `make fuzz`, and replayed over
// the corpus in tests/fuzz/corpus/NAME/ by the g++ program corpus_replay that `make check` runs.
//
// A harness returns normally when the input is accepted or rejected the way the commands reject
// bad input (a FormatError with file:line, a deadlock report, a machine that does not fit); any
// other exception, a crash, a sanitizer report, a hang or a blown memory limit is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tareador/replay.h"
#include "tareador/trace.h"

namespace tareador::fuzz {

using Harness = int (*)(const std::uint8_t* data, std::size_t size);

int fuzz_dim(const std::uint8_t* data, std::size_t size);     // a .dim, validated and replayed
int fuzz_cfg(const std::uint8_t* data, std::size_t size);     // a Dimemas .cfg, then a replay on it
int fuzz_toml(const std::uint8_t* data, std::size_t size);    // a TOML machine, then a replay on it
int fuzz_native(const std::uint8_t* data, std::size_t size);  // a trace set (authentic), replayed
int fuzz_tasks(const std::uint8_t* data, std::size_t size);   // a trace set (tasks), replayed
int fuzz_paraver(const std::uint8_t* data, std::size_t size);  // the viewer's Paraver reader

// The parts of a multi-file input: the text between lines "%%" (a part that is exactly "!"
// stands for a file that is not there).
std::vector<std::string_view> split_parts(const std::uint8_t* data, std::size_t size);

// A directory of this process for the files of one input (emptied for each).
class Scratch {
 public:
  static Scratch& get();
  std::string path(const std::string& name) const;
  // Writes `text` to `name`; "!" writes nothing (the file is absent).
  std::string write(const std::string& name, std::string_view text) const;
  void clear() const;  // removes every file (and directory) in it but those named keep-*

 private:
  Scratch();
  std::string dir_;
};

// The machine the trace harnesses replay on: 3 nodes of 2 cores (tasks fill them), a network
// with 2 buses, collectives of each model and size rule.
replay::Machine test_machine();

// Validates (unless `validate` is false) and replays every trace (with a Paraver timeline into
// the scratch directory for one trace in four), checks what the commands would print, and that
// a finished replay's times are times. Exceptions the commands report as bad input are
// swallowed.
void replay_all(const std::vector<std::unique_ptr<trace::Trace>>& traces,
                const replay::Machine& machine, bool validate = true);

// With FUZZ_VERBOSE set: says why an input was rejected (when going through a corpus).
void rejected(const std::exception& e);

// Runs `body`, swallowing the errors the commands report as bad input (exit 1 or 2).
template <typename Body>
void expecting_bad_input(Body body) {
  try {
    body();
  } catch (const trace::FormatError& e) {
    rejected(e);
  } catch (const replay::DeadlockError& e) {
    rejected(e);
  } catch (const std::invalid_argument& e) {  // a machine the trace does not fit, a bad policy
    rejected(e);
  }
}

}  // namespace tareador::fuzz
