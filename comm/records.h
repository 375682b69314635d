// records.h — reading the tool's communication files (comm.N.txt, threadcomm.N.txt): their
// header line "# tareador KIND v1 rank=R KEY=VALUE...", then one record a line, fields separated
// by single blanks, read with tracefmt's field parser (errors name path:line). Internal to comm.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "tracefmt/fields.h"
#include "tracefmt/line_reader.h"

namespace tareador::comm {

class RecordFile {
 public:
  // Opens `path` and checks its header: KIND, version 1, rank `rank`.
  RecordFile(const std::string& path, const std::string& kind, int rank);

  // The header's KEY=VALUE fields other than rank; fails when `key` is missing.
  const std::string& header(const std::string& key) const;
  // The next record line (the `end` line included); false at the end of the file.
  bool next(std::string_view& line) { return lines_.next(line); }
  trace::Fields fields(std::string_view line) const { return {line, ' ', lines_}; }
  [[noreturn]] void fail(const std::string& message) const;
  // Fails unless an `end` line was read: the file was cut.
  void expect_end(bool ended) const;

 private:
  std::string path_;
  std::shared_ptr<const trace::SharedFile> file_;
  trace::LineReader lines_;
  std::map<std::string, std::string> header_;
};

}  // namespace tareador::comm
