// outputs.h — where the outputs of a replay go and how the commands show their work: names of
// output files when one option serves several traces, the replays kept in a trace set (what
// tareador-view shows), the files of an analysis, the JSON summaries, a progress line.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "tareador/trace.h"

namespace tareador::replay {

// `path` for one trace; for one of several, PATH with LABEL before its extension (OUT.prv ->
// OUT.LABEL.prv; a path without extension gets .LABEL).
std::string output_path(const std::string& path, const std::string& label, std::size_t traces);

// Where the replay of a trace-set kind is kept in the set (for the viewer): SET/replay/KIND.prv,
// with its .pcf, .row and the JSON summary KIND.json (which names the run of the set it replays).
// Empty for a Dimemas file.
std::string saved_timeline(const trace::TraceHeader& header);
// Before the first replay is kept in a set: SET/replay/ can be written into, and the replays that
// another run of the set left there are removed (they would show beside this run's).
void prepare_saved_timelines(const trace::TraceHeader& header);

// Where the files of an analysis `name` (sweep-KEY, critical) of `header`'s input go: `given`
// (--sweep-out) when not empty, else inside the trace set (SET/NAME) or beside a Dimemas file
// (DIR/FILE-NAME); empty (none) when `keep` is false.
std::string analysis_prefix(const std::string& given, bool keep, const trace::TraceHeader& header,
                            const std::string& name);

// Writes `doc` to `path` ("-": standard output); throws trace::FormatError naming the file.
void write_json(const std::string& path, const nlohmann::ordered_json& doc);

// Progress on stderr, a few times a second, only where someone watches; erased when done.
class ProgressLine {
 public:
  ProgressLine(bool enabled, std::string label) : enabled_(enabled), label_(std::move(label)) {}
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  // `detail`: what is under way, after the percentage (a sweep's current replay). Replays
  // running at once may call it from their threads.
  void operator()(double fraction, const std::string& detail = {});

 private:
  bool enabled_;
  std::string label_;
  int width_ = 0;  // of the widest line shown, 0 before the first
  std::chrono::steady_clock::time_point last_;
  std::mutex lock_;
};

}  // namespace tareador::replay
