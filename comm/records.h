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
  trace::Fields fields(std::string_view line) const { return {line, ' ', lines_}; }
  [[noreturn]] void fail(const std::string& message) const;

  // Calls `read(record, fields)` for each record up to the `end` line, `fields` just past the
  // record's name; `read` returns false for a record it does not know, which fails naming the
  // `expected` ones ("thread, pair"). Fails when the file stops before its `end` line.
  template <typename Read>
  void read_records(const std::string& expected, Read read) {
    std::string_view line;
    while (lines_.next(line)) {
      trace::Fields f = fields(line);
      std::string_view record = f.text("record");
      if (record == "end") return;
      if (!read(record, f))
        f.fail("unknown record " + trace::excerpt(record) + " (expected " + expected + " or end)");
    }
    fail("the file stops before its 'end' line (the run was cut short)");
  }

 private:
  std::string path_;
  std::shared_ptr<const trace::SharedFile> file_;
  trace::LineReader lines_;
  std::map<std::string, std::string> header_;
};

}  // namespace tareador::comm
