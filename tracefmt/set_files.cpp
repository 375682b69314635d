// The files of a trace set, by the names of tracefmt/set_layout.h (trace.h, set_files).
#include <cstdio>
#include <filesystem>

#include "tareador/trace.h"
#include "tracefmt/set_layout.h"

namespace tareador::trace::set_files {

namespace {

// DIR/NAME, NAME from a printf format and its arguments.
template <typename... Args>
std::string in_set(const std::string& dir, const char* format, Args... args) {
  int length = std::snprintf(nullptr, 0, format, args...);
  std::string name(static_cast<std::size_t>(length), '\0');
  std::snprintf(name.data(), name.size() + 1, format, args...);
  return (std::filesystem::path(dir) / name).string();
}

}  // namespace

std::string manifest(const std::string& dir) { return in_set(dir, TR_SET_MANIFEST); }
std::string rank_manifest(const std::string& dir, int rank) {
  return in_set(dir, TR_SET_RANK_MANIFEST, rank);
}
std::string stream(const std::string& dir, const std::string& kind, int rank) {
  return in_set(dir, TR_SET_STREAM, kind.c_str(), rank);
}
std::string patterns(const std::string& dir, int rank) {
  return in_set(dir, TR_SET_PATTERNS, rank);
}
std::string taskgraph(const std::string& dir, int rank, const std::string& extension) {
  return in_set(dir, TR_SET_TASKGRAPH, rank, extension.c_str());
}
std::string taskreport(const std::string& dir, int rank, const std::string& extension) {
  return in_set(dir, TR_SET_TASKREPORT, rank, extension.c_str());
}
std::string comm(const std::string& dir, int rank) { return in_set(dir, TR_SET_COMM, rank); }
std::string thread_comm(const std::string& dir, int rank) {
  return in_set(dir, TR_SET_THREADS, rank);
}
std::string replays(const std::string& dir) { return in_set(dir, TR_SET_REPLAYS); }

}  // namespace tareador::trace::set_files
