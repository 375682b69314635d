#include "tracefmt/line_reader.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "tareador/trace.h"

namespace tareador::trace {

namespace {
constexpr std::size_t kBufferSize = 64 * 1024;
}

// The descriptors of every SharedFile: at most `limit_` open at once.
class DescriptorPool {
 public:
  static DescriptorPool& instance() {
    static DescriptorPool pool;
    return pool;
  }

  // Registers the descriptor `file` was opened with.
  void adopt(const SharedFile& file, int fd) {
    std::lock_guard<std::mutex> lock(mutex_);
    make_room();
    file.fd_ = fd;
    file.last_use_ = ++clock_;
    open_.push_back(&file);
  }

  // The file's descriptor, open (reopened if it was given up) and held until release().
  int acquire(const SharedFile& file) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (file.fd_ < 0) {
      make_room();
      InputFile again = open_input_file(file.path_);
      if (again.device != file.device_ || again.inode != file.inode_ || again.size < file.size_) {
        ::close(again.fd);
        throw FormatError(file.path_, 0, "the file was replaced or shortened while it was read");
      }
      file.fd_ = again.fd;
      open_.push_back(&file);
    }
    ++file.users_;
    file.last_use_ = ++clock_;
    return file.fd_;
  }

  void release(const SharedFile& file) {
    std::lock_guard<std::mutex> lock(mutex_);
    --file.users_;
  }

  void forget(const SharedFile& file) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (file.fd_ < 0) return;
    ::close(file.fd_);
    file.fd_ = -1;
    open_.erase(std::find(open_.begin(), open_.end(), &file));
  }

 private:
  DescriptorPool() {
    struct rlimit limit {};
    std::uint64_t soft = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
                             ? static_cast<std::uint64_t>(limit.rlim_cur)
                             : 1024;
    // A quarter of what the process may open: the rest is for its outputs and libraries.
    limit_ = static_cast<std::size_t>(std::clamp<std::uint64_t>(soft / 4, 4, kMaxOpenFiles));
  }

  // Closes the least recently used descriptor nobody is reading through, if the pool is full.
  void make_room() {
    if (open_.size() < limit_) return;
    auto victim = open_.end();
    for (auto it = open_.begin(); it != open_.end(); ++it)
      if ((*it)->users_ == 0 && (victim == open_.end() || (*it)->last_use_ < (*victim)->last_use_))
        victim = it;
    if (victim == open_.end()) return;  // all in use (as many readers as descriptors)
    ::close((*victim)->fd_);
    (*victim)->fd_ = -1;
    *victim = open_.back();
    open_.pop_back();
  }

  std::mutex mutex_;
  std::vector<const SharedFile*> open_;
  std::size_t limit_ = kMaxOpenFiles;
  std::uint64_t clock_ = 0;
};

std::shared_ptr<const SharedFile> SharedFile::open(const std::string& path) {
  InputFile file = open_input_file(path);
  std::shared_ptr<const SharedFile> shared(new SharedFile(path, file));
  DescriptorPool::instance().adopt(*shared, file.fd);
  return shared;
}

std::shared_ptr<const SharedFile> SharedFile::missing(const std::string& path) {
  return std::shared_ptr<const SharedFile>(new SharedFile(path, InputFile{}));  // no descriptor
}

SharedFile::SharedFile(std::string path, const InputFile& file)
    : path_(std::move(path)), size_(file.size), device_(file.device), inode_(file.inode) {}

SharedFile::~SharedFile() { DescriptorPool::instance().forget(*this); }

namespace {

// The end of the last whole line of `file` (0 if it has none).
std::uint64_t end_of_whole_lines(const SharedFile& file) {
  constexpr std::uint64_t kBlock = 4096;
  char buffer[kBlock];
  for (std::uint64_t end = file.size(); end > 0;) {
    std::uint64_t from = end > kBlock ? end - kBlock : 0;
    std::size_t n = file.read_at(from, buffer, static_cast<std::size_t>(end - from));
    if (const void* last = memrchr(buffer, '\n', n))
      return from + static_cast<std::uint64_t>(static_cast<const char*>(last) - buffer) + 1;
    end = from;
  }
  return 0;
}

}  // namespace

StreamFile open_rank_stream(const std::string& path, int rank, bool truncated,
                            std::vector<std::string>& notes) {
  std::string who = "rank " + std::to_string(rank);
  std::error_code error;
  if (truncated && !std::filesystem::exists(path, error)) {
    notes.push_back(who + " has no " + std::filesystem::path(path).filename().string() +
                    ": its process died before creating it");
    return {SharedFile::missing(path), 0};
  }
  StreamFile stream{SharedFile::open(path), 0};
  stream.end = truncated ? end_of_whole_lines(*stream.file) : stream.file->size();
  if (stream.end < stream.file->size())
    notes.push_back(who + ": the last line of " + path + " is incomplete (" +
                    std::to_string(stream.file->size() - stream.end) +
                    " bytes: the writer stopped there): left out");
  return stream;
}

std::size_t SharedFile::read_at(std::uint64_t offset, char* buffer, std::size_t n) const {
  if (offset >= size_) return 0;  // (and a missing file, empty, has no descriptor to open)
  DescriptorPool& pool = DescriptorPool::instance();
  int fd = pool.acquire(*this);
  std::size_t done = 0;
  int error = 0;
  while (done < n) {
    ssize_t got = ::pread(fd, buffer + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      error = errno;
      break;
    }
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  pool.release(*this);
  if (error) throw FormatError(path_, 0, "read error: " + system_error_text(error));
  return done;
}

std::uint64_t SharedFile::line_of(std::uint64_t offset) const {
  std::uint64_t line = 1;
  std::vector<char> buffer(kBufferSize);
  for (std::uint64_t at = 0; at < offset;) {
    std::size_t n = read_at(at, buffer.data(), std::min<std::uint64_t>(kBufferSize, offset - at));
    if (n == 0) break;
    line += static_cast<std::uint64_t>(std::count(buffer.data(), buffer.data() + n, '\n'));
    at += n;
  }
  return line;
}

std::string SharedFile::where(std::uint64_t offset) const {
  return path_ + ":" + std::to_string(line_of(offset));
}

LineReader::LineReader(std::shared_ptr<const SharedFile> file, std::uint64_t begin,
                       std::uint64_t end, std::uint64_t first_line)
    : file_(std::move(file)),
      begin_(begin),
      end_(std::min(end, file_->size())),
      buffer_offset_(begin),
      line_offset_(begin),
      line_end_(begin),
      first_line_(first_line) {}

// Moves the unread tail to the front and reads more; grows the buffer for very long lines.
// The last byte of the buffer is never filled: it is room for the sentinel after a last line
// that has no '\n'.
bool LineReader::refill() {
  if (buffer_offset_ + filled_ >= end_) return false;
  // A stream's region may be small (a thread of a .dim): its buffer is no larger.
  if (!buffer_) {
    capacity_ = static_cast<std::size_t>(std::min<std::uint64_t>(kBufferSize, end_ - begin_));
    buffer_.reset(new char[capacity_ + 1]);
  }
  if (pos_ == 0 && filled_ == capacity_) {
    std::unique_ptr<char[]> larger(new char[2 * capacity_ + 1]);
    std::memcpy(larger.get(), buffer_.get(), filled_);
    buffer_ = std::move(larger);
    capacity_ *= 2;
  }
  std::size_t tail = filled_ - pos_;
  std::memmove(buffer_.get(), buffer_.get() + pos_, tail);
  buffer_offset_ += pos_;
  pos_ = 0;
  filled_ = tail;
  whole_ = 0;
  std::uint64_t want = std::min<std::uint64_t>(capacity_ - tail, end_ - (buffer_offset_ + tail));
  std::size_t got = file_->read_at(buffer_offset_ + tail, buffer_.get() + tail, want);
  filled_ = tail + got;
  if (const void* last = memrchr(buffer_.get(), '\n', filled_))
    whole_ = static_cast<std::size_t>(static_cast<const char*>(last) - buffer_.get()) + 1;
  return got > 0;
}

bool LineReader::next(std::string_view& line) {
  const char* start;
  const char* nl;
  for (;;) {
    start = buffer_.get() + pos_;
    nl = filled_ > pos_ ? static_cast<const char*>(std::memchr(start, '\n', filled_ - pos_))
                        : nullptr;
    if (nl != nullptr) break;
    if (!refill()) {
      if (pos_ == filled_) return false;  // end of region
      start = buffer_.get() + pos_;       // a last line without '\n': give it one
      buffer_[filled_] = '\n';
      break;
    }
  }
  std::size_t length = nl ? static_cast<std::size_t>(nl - start) : filled_ - pos_;
  line_offset_ = buffer_offset_ + pos_;
  pos_ += length + (nl ? 1 : 0);
  line_end_ = buffer_offset_ + pos_;
  ++lines_read_;
  if (length > 0 && start[length - 1] == '\r') --length;
  line = std::string_view(start, length);
  return true;
}

std::uint64_t LineReader::line_number() const {
  if (first_line_ == 0) first_line_ = file_->line_of(begin_);
  return first_line_ + (lines_read_ ? lines_read_ - 1 : 0);
}

std::string LineReader::where() const {
  return file_->path() + ":" + std::to_string(line_number());
}

}  // namespace tareador::trace
