// line_reader.h — forward-only line cursors over a region of a file (internal to tracefmt).
//
// Every stream of a trace walks its own region of the file with its own small buffer (pread on
// a shared descriptor), so a replay of P streams holds P buffers, not the trace. Descriptors are
// few: files are opened when read and closed when too many are open (a set of 2,000 ranks
// replays under `ulimit -n 1024`), then reopened at need.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tareador/trace.h"

namespace tareador::trace {

inline constexpr std::size_t kMaxOpenFiles = 256;

// A read-only file shared by the cursors that walk it. Its descriptor is one of a process-wide
// pool of at most kMaxOpenFiles (fewer under a low `ulimit -n`): the least recently read file
// gives its descriptor up, and is reopened (and checked to be the same file) when read again.
class SharedFile {
 public:
  // Only a regular file (open_input_file); throws FormatError.
  static std::shared_ptr<const SharedFile> open(const std::string& path);
  // A file that does not exist, read as empty: the stream of a rank that died before writing it.
  static std::shared_ptr<const SharedFile> missing(const std::string& path);
  ~SharedFile();
  SharedFile(const SharedFile&) = delete;
  SharedFile& operator=(const SharedFile&) = delete;

  const std::string& path() const { return path_; }
  std::uint64_t size() const { return size_; }
  // Reads up to `n` bytes at `offset`; returns how many were read (0 at end of file).
  std::size_t read_at(std::uint64_t offset, char* buffer, std::size_t n) const;
  // 1-based number of the line holding byte `offset` (counts newlines; used only for errors).
  std::uint64_t line_of(std::uint64_t offset) const;
  // "path:line" of byte `offset`.
  std::string where(std::uint64_t offset) const;

 private:
  friend class DescriptorPool;
  SharedFile(std::string path, const InputFile& file);
  std::string path_;
  std::uint64_t size_, device_, inode_;
  // Guarded by the pool's mutex: the descriptor (-1 = closed), readers using it now, and the
  // pool's clock at the last read (for least-recently-used eviction).
  mutable int fd_ = -1;
  mutable int users_ = 0;
  mutable std::uint64_t last_use_ = 0;
};

// A stream of one rank of a trace set: bytes [0, end) of `file`.
struct StreamFile {
  std::shared_ptr<const SharedFile> file;
  std::uint64_t end = 0;
};

// Opens the stream at `path` of `rank`: the whole file; but when the rank's process died
// (`truncated`), only its whole lines (a line the death cut is left out), and nothing when it
// died before creating the file. `notes` says what was left out.
StreamFile open_rank_stream(const std::string& path, int rank, bool truncated,
                            std::vector<std::string>& notes);

class LineReader {
 public:
  // Reads the lines of [begin, end) of `file`. When `first_line` is 0 the line numbers are found
  // lazily (only when an error needs them).
  LineReader(std::shared_ptr<const SharedFile> file, std::uint64_t begin, std::uint64_t end,
             std::uint64_t first_line = 0);

  // The next line, without its '\n' (and '\r'); valid until the next call. False at the end.
  // The byte just past the line is always readable and is '\n' or '\r', so parsers may scan
  // digits without checking for the end.
  bool next(std::string_view& line);
  // The whole lines buffered ahead, each with its '\n' (empty when none is): a parser may read
  // the next line there in one pass, stopping at its '\n' instead of searching for it first,
  // then take it with take_line (or call next(), which reads it again).
  std::string_view buffered_lines() const {
    return std::string_view(buffer_.get() + pos_, whole_ > pos_ ? whole_ - pos_ : 0);
  }
  // Takes the first `length` bytes of buffered_lines(), a line and its '\n', as next() would.
  void take_line(std::size_t length) {
    line_offset_ = buffer_offset_ + pos_;
    pos_ += length;
    line_end_ = buffer_offset_ + pos_;
    ++lines_read_;
  }
  // Offset in the file of the line last returned.
  std::uint64_t line_offset() const { return line_offset_; }
  // 1-based line number of the line last returned.
  std::uint64_t line_number() const;
  // file:line of the line last returned.
  std::string where() const;
  std::uint64_t bytes_read() const { return line_end_ - begin_; }
  const SharedFile& file() const { return *file_; }

 private:
  bool refill();

  std::shared_ptr<const SharedFile> file_;
  std::uint64_t begin_, end_;
  std::uint64_t buffer_offset_;  // file offset of buffer_[0]
  // Allocated at the first read (P idle streams cost nothing), and not zeroed: only bytes read
  // from the file are ever looked at. One byte more than `capacity_`: the sentinel's.
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0;
  std::size_t pos_ = 0, filled_ = 0;
  std::size_t whole_ = 0;  // just past the last '\n' of the buffer (0: none)
  std::uint64_t line_offset_ = 0, line_end_ = 0;
  std::uint64_t lines_read_ = 0;
  mutable std::uint64_t first_line_;  // line number at `begin_`; 0 until needed
};

// A record and its RecordStream::mark() (what the prefetcher's rings hold).
struct MarkedRecord {
  Record record;
  std::uint64_t mark;
};

// Reads up to `n` records of `stream` with their marks into `out`, fewer only at its end;
// `read` counts them as they come (after a FormatError, the good ones). A final Stream's calls
// are direct: many records for one virtual call.
template <class Stream>
void read_records(Stream& stream, MarkedRecord* out, std::size_t n, std::size_t& read) {
  for (read = 0; read < n && stream.next(out[read].record); ++read) out[read].mark = stream.mark();
}

// A stream of records read line by line: it locates its records for reports.
class LineRecordStream : public RecordStream {
 public:
  LineRecordStream(std::shared_ptr<const SharedFile> file, std::uint64_t begin, std::uint64_t end,
                   std::uint64_t first_line = 0)
      : lines_(std::move(file), begin, end, first_line) {}

  // read_records at one virtual call (the prefetcher's way); a final stream overrides it, so
  // that its next() calls are direct.
  virtual void next_records(MarkedRecord* out, std::size_t n, std::size_t& read) {
    read_records(*this, out, n, read);
  }
  std::string where() const override { return lines_.where(); }
  std::uint64_t mark() const final { return lines_.line_offset(); }
  std::string where(std::uint64_t mark) const override { return lines_.file().where(mark); }
  std::uint64_t bytes_read() const override { return lines_.bytes_read(); }

 protected:
  // Throws FormatError at the line last read.
  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(lines_.file().path(), lines_.line_number(), message);
  }

  LineReader lines_;
};

}  // namespace tareador::trace
