// The header and lines of the tool's communication files.
#include "comm/records.h"

#include "tareador/trace.h"

namespace tareador::comm {

RecordFile::RecordFile(const std::string& path, const std::string& kind, int rank)
    : path_(path), file_(trace::SharedFile::open(path)), lines_(file_, 0, file_->size(), 1) {
  std::string_view line;
  const std::string magic = "# tareador " + kind + " v";
  if (!lines_.next(line) || line.substr(0, magic.size()) != magic)
    throw trace::FormatError(
        path, 1,
        "not a " + kind + " file: the first line must be '# tareador " + kind + " v1 rank=N ...'");
  trace::Fields f(line.substr(2), ' ', lines_);
  f.text("tareador");
  f.text("kind");
  std::string_view version = f.text("version");
  if (version != "v1")
    fail(kind + " version " + trace::clipped(version.substr(1)) +
         " is not supported (this reader knows version 1)");
  while (!f.done()) {
    std::string_view field = f.text("KEY=VALUE");
    std::size_t eq = field.find('=');
    if (eq == std::string_view::npos)
      fail("header field " + trace::excerpt(field) + " is not KEY=VALUE");
    header_[std::string(field.substr(0, eq))] = std::string(field.substr(eq + 1));
  }
  auto r = header_.find("rank");
  if (r == header_.end()) fail("the header has no rank=N");
  if (r->second != std::to_string(rank))
    fail("the header says rank " + trace::clipped(r->second) + " but the file is rank " +
         std::to_string(rank) + "'s");
}

const std::string& RecordFile::header(const std::string& key) const {
  auto it = header_.find(key);
  if (it == header_.end()) throw trace::FormatError(path_, 1, "the header has no " + key + "=");
  return it->second;
}

void RecordFile::fail(const std::string& message) const {
  throw trace::FormatError(path_, lines_.line_number(), message);
}

}  // namespace tareador::comm
