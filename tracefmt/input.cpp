// Input files as every reader opens them (only regular files, never blocking), error excerpts,
// and the check that standard output took what was written to it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "tareador/trace.h"
#include "tracefmt/utf8.h"

namespace tareador::trace {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

}  // namespace

std::string system_error_text(int error) {
  switch (error) {
    case ENOENT:
      return "no such file or directory";
    case EACCES:
    case EPERM:
      return "permission denied";
    case ENOTDIR:
      return "a component of the path is not a directory";
    case EISDIR:
      return "is a directory";
    case ENOSPC:
      return "no space left on the device";
    case EDQUOT:
      return "disk quota exceeded";
    case EROFS:
      return "read-only file system";
    case EMFILE:
    case ENFILE:
      return "too many open files";
    case ENAMETOOLONG:
      return "the name is too long";
    case EEXIST:
      return "already exists";
    case ELOOP:
      return "too many symbolic links";
    case EIO:
      return "input/output error";
    case EFBIG:
      return "the file is too large";
    case EPIPE:
      return "the reader went away (broken pipe)";
    default: {
      std::string text = std::strerror(error);
      if (!text.empty())
        text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
      return text;
    }
  }
}

InputFile open_input_file(const std::string& path) {
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw FormatError(path, 0, "cannot open: " + system_error_text(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int error = errno;
    ::close(fd);
    throw FormatError(path, 0, "cannot open: " + system_error_text(error));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw FormatError(path, 0, "not a regular file (" + kind_of(st.st_mode) + ")");
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  InputFile file;
  file.fd = fd;
  file.size = static_cast<std::uint64_t>(st.st_size);
  file.device = static_cast<std::uint64_t>(st.st_dev);
  file.inode = static_cast<std::uint64_t>(st.st_ino);
  return file;
}

std::string read_input_file(const std::string& path, std::uint64_t max_bytes, const char* what) {
  InputFile file = open_input_file(path);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{file.fd};
  if (file.size > max_bytes)
    throw FormatError(path, 0,
                      "is " + std::to_string(file.size) + " bytes; " + what + " is at most " +
                          std::to_string(max_bytes) + " bytes");
  std::string text(static_cast<std::size_t>(file.size), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t got = ::read(file.fd, text.data() + done, text.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw FormatError(path, 0, "read error: " + system_error_text(errno));
    if (got == 0) break;  // shrank meanwhile
    done += static_cast<std::size_t>(got);
  }
  text.resize(done);
  return text;
}

std::uint64_t first_invalid_utf8_line(std::string_view text) {
  if (valid_utf8(text)) return 0;
  // The line of the first byte that starts no valid sequence: the lines before it are valid.
  std::uint64_t line = 1;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n') continue;
    if (!valid_utf8(text.substr(start, i - start))) return line;
    ++line;
    start = i + 1;
  }
  return line;
}

namespace {

// At most `max` characters of `text`, those that are not printable (or not UTF-8) escaped as
// \xNN; `used` is how many bytes of `text` they stand for.
std::string escaped_prefix(std::string_view text, std::size_t max, std::size_t& used) {
  std::string out;
  std::size_t shown = 0, i = 0;
  for (; i < text.size() && shown < max; ++shown) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    // A whole UTF-8 character as it is; anything else that is not printable ASCII escaped.
    std::size_t length = c < 0x80                 ? 1
                         : c >= 0xC2 && c <= 0xDF ? 2
                         : c >= 0xE0 && c <= 0xEF ? 3
                         : c >= 0xF0 && c <= 0xF4 ? 4
                                                  : 0;
    if (length > 1 && i + length <= text.size() && valid_utf8(text.substr(i, length))) {
      out.append(text.substr(i, length));
      i += length;
      continue;
    }
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
    ++i;
  }
  used = i;
  return out;
}

std::string cut_note(std::string_view text, std::size_t used) {
  return used < text.size() ? "... (" + std::to_string(text.size()) + " bytes)" : std::string();
}

}  // namespace

std::string clipped(std::string_view text, std::size_t max) {
  std::size_t used = 0;
  std::string out = escaped_prefix(text, max, used);
  return out + cut_note(text, used);
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string excerpt(std::string_view text, std::size_t max) {
  std::size_t used = 0;
  std::string out = escaped_prefix(text, max, used);
  return "'" + out + "'" + cut_note(text, used);
}

void make_output_directory(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir.empty() ? "." : dir, error);
  if (error)
    throw FormatError(dir, 0, "cannot create the directory: " + system_error_text(error.value()));
  if (::access(dir.empty() ? "." : dir.c_str(), W_OK | X_OK) != 0)
    throw FormatError(dir, 0, "cannot write into the directory: " + system_error_text(errno));
}

void check_output_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
  bool created = false;
  if (fd < 0 && errno == ENOENT) {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    created = fd >= 0;
  }
  if (fd < 0) throw FormatError(path, 0, "cannot write: " + system_error_text(errno));
  struct stat st {};
  bool directory = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
  ::close(fd);
  if (created) ::unlink(path.c_str());
  if (directory) throw FormatError(path, 0, "cannot write: is a directory");
}

void flush_stdout() {
  std::cout.flush();
  bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return;
  int error = errno;
  std::cout.clear();
  std::clearerr(stdout);
  throw FormatError("standard output", 0,
                    "write error: " + (error ? system_error_text(error) : std::string("failed")));
}

}  // namespace tareador::trace
