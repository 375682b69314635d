// Output files, kept replays, analysis files, JSON, progress (outputs.h).
#include "replay/outputs.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace tareador::replay {

std::string output_path(const std::string& path, const std::string& label, std::size_t traces) {
  if (traces == 1) return path;
  std::size_t dot = path.find_last_of('.');
  std::size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return path + "." + label;
  return path.substr(0, dot) + "." + label + path.substr(dot);
}

std::string saved_timeline(const trace::TraceHeader& header) {
  if (header.kind == "dimemas") return {};
  return (std::filesystem::path(trace::set_files::replays(header.path)) / (header.kind + ".prv"))
      .string();
}

void prepare_saved_timelines(const trace::TraceHeader& header) {
  namespace fs = std::filesystem;
  fs::path dir = trace::set_files::replays(header.path);
  try {
    trace::make_output_directory(dir.string());
  } catch (const trace::FormatError& e) {
    throw trace::FormatError(e.file(), 0,
                             e.message() +
                                 " (to replay the set without keeping its timeline there, use "
                                 "--no-save, or --prv elsewhere)");
  }
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const fs::path& json = entry.path();
    if (json.extension() != ".json" || trace::saved_replay_run(json.string()) == header.run)
      continue;
    for (const char* extension : {".prv", ".pcf", ".row", ".json"})
      fs::remove(fs::path(json).replace_extension(extension), error);
  }
}

std::string analysis_prefix(const std::string& given, bool keep, const trace::TraceHeader& header,
                            const std::string& name) {
  if (!given.empty()) return given;
  if (!keep) return {};
  std::filesystem::path path(header.path);
  if (header.kind == "dimemas")
    return (path.parent_path() / (path.stem().string() + "-" + name)).string();
  return (path / name).string();
}

void write_json(const std::string& path, const nlohmann::ordered_json& doc) {
  // (A path that is not UTF-8, as Linux allows, is written with U+FFFD in its place.)
  std::string text = doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  if (path == "-") {
    std::cout << text << "\n";
    return;
  }
  std::ofstream out(path);
  out << text << "\n";
  out.close();
  if (!out) throw trace::FormatError(path, 0, "cannot write the JSON summary");
}

ProgressLine::~ProgressLine() {
  if (width_ > 0) std::fprintf(stderr, "\r%*s\r", width_, "");
}

void ProgressLine::operator()(double fraction, const std::string& detail) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> hold(lock_);
  auto now = std::chrono::steady_clock::now();
  if (width_ > 0 && now - last_ < std::chrono::milliseconds(200) && fraction < 1.0) return;
  last_ = now;
  // Padded to the last line's width, so that a shorter line leaves nothing of it behind.
  int width = std::fprintf(stderr, "\rreplaying %s: %5.1f%%%s%s", label_.c_str(), 100.0 * fraction,
                           detail.empty() ? "" : ", ", detail.c_str()) -
              1;
  if (width < width_) std::fprintf(stderr, "%*s", width_ - width, "");
  width_ = std::max(width, width_);
  std::fflush(stderr);
}

}  // namespace tareador::replay
