// What the viewer is asked to open: Paraver traces, trace sets, task graphs.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <map>

#include "tareador/trace.h"
#include "viz/inputs.h"

namespace tareador::view {

namespace fs = std::filesystem;

namespace {

bool has_extension(const fs::path& path, const char* extension) {
  return path.extension() == extension;
}

// Trace-set kinds in the order the thesis compares them; other timelines follow by name.
int kind_rank(const std::string& kind) {
  static const char* const kOrder[] = {"authentic", "overlap-real", "overlap-ideal",
                                       "overlap-speculative", "tasks"};
  for (int i = 0; i < 5; ++i)
    if (kind == kOrder[i]) return i;
  return 5;
}

// What the manifest of a trace-set directory says of the run that wrote it (nothing for a
// directory without one; a manifest that cannot be read is a warning).
struct SetRun {
  std::string run;
  int ranks = 0;
};
SetRun set_run(const std::string& dir, std::vector<std::string>& warnings) {
  if (!trace::is_trace_set(dir)) return {};
  try {
    trace::SetManifest manifest = trace::read_set_manifest(dir, true);
    return {manifest.run, manifest.ranks};
  } catch (const trace::FormatError& e) {
    warnings.push_back(std::string(e.what()) + " (its replays are shown as they are)");
    return {};
  }
}

}  // namespace

std::int64_t rank_of_graph(const fs::path& dot) {
  std::string stem = dot.stem().string();  // "taskgraph.3"
  std::size_t dot_at = stem.rfind('.');
  if (dot_at == std::string::npos || dot_at + 1 == stem.size() ||
      stem.find_first_not_of("0123456789", dot_at + 1) != std::string::npos)
    return 0;
  std::int64_t rank = 0;
  auto [end, ec] = std::from_chars(stem.data() + dot_at + 1, stem.data() + stem.size(), rank);
  return ec == std::errc() ? rank : std::numeric_limits<std::int64_t>::max();  // (out of range)
}

Inputs resolve_inputs(const std::vector<std::string>& paths) {
  Inputs inputs;
  std::vector<std::string> sources;  // what each timeline came from, to name duplicates
  for (const std::string& arg : paths) {
    fs::path path(arg);
    std::error_code error;
    fs::file_status status = fs::status(path, error);
    if (!fs::exists(status)) throw LoadError(arg, 0, "no such file or directory");
    if (fs::is_directory(status)) {
      fs::path replays = trace::set_files::replays(arg);
      SetRun set = set_run(arg, inputs.warnings);
      std::vector<fs::path> found;
      std::size_t stale = 0;
      if (fs::is_directory(replays, error))
        for (const fs::directory_entry& entry : fs::directory_iterator(replays, error)) {
          if (!entry.is_regular_file(error) || !has_extension(entry.path(), ".prv")) continue;
          fs::path json = fs::path(entry.path()).replace_extension(".json");
          std::string run = set.run.empty() ? set.run : trace::saved_replay_run(json.string());
          if (run != set.run) {
            inputs.warnings.push_back(
                entry.path().string() +
                (run.empty() ? ": its summary " + json.string() +
                                   " is missing or unreadable, so which run it replays is not "
                                   "known: left out (replay the set again)"
                             : ": the replay of another run of the set, left out (replay the "
                               "set again)"));
            ++stale;
            continue;
          }
          found.push_back(entry.path());
        }
      if (found.empty())
        throw LoadError(
            arg, 0,
            (stale ? "no simulated timeline of this run of the set in " + replays.string() + "/ (" +
                         std::to_string(stale) +
                         " left out, of another run or without a summary: replay the set again, "
                   : "no simulated timeline in " + replays.string() + "/ (") +
                "a trace set shows its replays: run `replay --config MACHINE " + arg + "` first)");
      std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
        int ra = kind_rank(a.stem().string()), rb = kind_rank(b.stem().string());
        return ra != rb ? ra < rb : a.stem() < b.stem();
      });
      for (const fs::path& prv : found) {
        inputs.timelines.emplace_back(prv.stem().string(), prv.string());
        sources.push_back(path.lexically_normal().filename().string());
      }
      // taskgraph.dot, or one taskgraph.N.dot per rank (tareador-tasks), by rank.
      std::vector<std::pair<std::int64_t, std::string>> graphs;
      for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
        std::string name = entry.path().filename().string();
        if (name.rfind("taskgraph.", 0) != 0 || !has_extension(entry.path(), ".dot") ||
            !entry.is_regular_file(error))
          continue;
        std::int64_t rank = rank_of_graph(entry.path());
        if (set.ranks > 0 && rank >= set.ranks) {
          inputs.warnings.push_back(entry.path().string() + ": left out (the set has " +
                                    std::to_string(set.ranks) +
                                    (set.ranks == 1 ? " rank)" : " ranks)"));
          continue;
        }
        graphs.emplace_back(rank, entry.path().string());
      }
      std::sort(graphs.begin(), graphs.end());
      for (const auto& [rank, graph] : graphs) inputs.task_graphs.push_back(graph);
    } else if (has_extension(path, ".dot")) {
      inputs.task_graphs.push_back(arg);
    } else if (has_extension(path, ".prv") || has_extension(path, ".gz")) {
      inputs.timelines.emplace_back(path.stem().string(), arg);
      sources.push_back(path.parent_path().filename().string());
    } else {
      throw LoadError(arg, 0,
                      "not a Paraver trace (.prv), a trace set (a directory) or a task graph "
                      "(.dot)");
    }
  }
  // Two timelines of one name (the authentic trace of two sets): prefix where they come from.
  std::map<std::string, int> uses;
  for (const auto& [name, path] : inputs.timelines) ++uses[name];
  for (std::size_t i = 0; i < inputs.timelines.size(); ++i)
    if (uses[inputs.timelines[i].first] > 1 && !sources[i].empty())
      inputs.timelines[i].first = sources[i] + "/" + inputs.timelines[i].first;
  return inputs;
}

Loaded load_inputs(const Inputs& inputs, const Progress& progress) {
  Loaded loaded;
  loaded.warnings = inputs.warnings;
  std::vector<double> sizes;
  double total = 0;
  for (const auto& [name, path] : inputs.timelines) {
    std::error_code error;
    sizes.push_back(static_cast<double>(fs::file_size(path, error)) + 1);
    total += sizes.back();
  }
  double done = 0;
  for (std::size_t i = 0; i < inputs.timelines.size(); ++i) {
    auto timeline = load_paraver(inputs.timelines[i].second, [&](double fraction) {
      return !progress || progress((done + fraction * sizes[i]) / total);
    });
    timeline->name = inputs.timelines[i].first;
    for (const std::string& w : timeline->warnings) loaded.warnings.push_back(w);
    loaded.timelines.push_back(std::move(timeline));
    done += sizes[i];
  }
  loaded.task_graphs = inputs.task_graphs;
  return loaded;
}

}  // namespace tareador::view
