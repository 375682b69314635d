// Dimemas 5 `.dim` traces: reader and writer.
//
//   #DIMEMAS:"name":X[,Y]:T(th0,th1,...),C       X = 1 when offsets are present, Y = offset of
//   d:1:comm:size:task...                          the first `s:` line; T tasks, C communicators
//   op:task:thread:fields...                       records, one contiguous block per thread
//   s:task:offset_thread0[:offset_thread1...]      where each thread's block starts
//
// Records: 0 no-op (an MPI call without communication; read as the opaque call "noop"), 1 CPU
// burst (s), 2 send, 3 receive/wait, 10 global op, 11 accelerator burst, 20 user event.
#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "tareador/trace.h"
#include "tracefmt/fields.h"
#include "tracefmt/line_reader.h"

namespace tareador::trace {

namespace {

struct Block {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;  // exclusive; the region a stream may read
};

// The fields of one record line, split as integers as far as they are integers.
struct LineFields {
  static constexpr int kMax = 11;
  std::int64_t value[kMax];
  int count = 0;             // leading fields that are plain decimal integers
  bool has_rest = false;     // something follows them (a field that is not an integer, or more)
  std::string_view rest;     // that something, from the start of its field
  bool has_seconds = false;  // `rest` is a number parse_decimal reads as `seconds`
  double seconds = 0;

  std::string_view rest_field() const { return rest.substr(0, rest.find(':')); }
};

// The innermost loop of a Dimemas replay: one pass over the line, digits by hand, up to
// `max_fields` fields. The byte past the line must not be a digit (LineReader guarantees a '\n'
// or '\r' there).
void split_integers(std::string_view line, LineFields& f, int max_fields = LineFields::kMax) {
  const char* p = line.data();
  const char* end = p + line.size();
  int count = 0;
  bool has_rest = false;
  while (count < max_fields) {
    const char* start = p;
    std::int64_t value = 0;
    auto digit = [](char c) { return static_cast<unsigned>(static_cast<unsigned char>(c) - '0'); };
    if (digit(p[0]) < 10 && digit(p[1]) >= 10) {  // one digit: most fields of a record
      value = digit(*p++);
    } else {
      bool negative = *p == '-';  // (at the end: the byte past the line, not a '-')
      p += negative;
      const char* digits = p;
      std::uint64_t x = 0;
      for (unsigned d; (d = digit(*p)) < 10; ++p) x = x * 10 + d;
      auto n = static_cast<std::size_t>(p - digits);
      bool fits = true;
      if (n - 1 < 18) {  // 1 to 18 digits: below 2^63
        value = negative ? -static_cast<std::int64_t>(x) : static_cast<std::int64_t>(x);
      } else {  // none, or past the fast path: the 64-bit range decides (else "out of range")
        fits = n != 0 && std::from_chars(start, p, value).ec == std::errc();
      }
      if (!fits) {
        p = start;
        has_rest = true;
        break;
      }
    }
    if (p != end && *p != ':') {
      p = start;
      has_rest = true;
      break;
    }
    f.value[count++] = value;
    if (p == end) break;
    ++p;
    if (count == max_fields) has_rest = true;
  }
  f.count = count;
  f.has_rest = has_rest;
  f.rest = std::string_view(p, static_cast<std::size_t>(end - p));
  f.has_seconds = false;
}

// What the records of a stream say after their type: ":task:thread:", as the first bytes of a
// word when it fits in one (`mask` keeps them), so that a line's task and thread, the stream's
// own, take one comparison.
struct OwnFields {
  std::uint64_t text = 1, mask = 0;  // (mask 0: too long, and no text matches)
  std::size_t length = 0;
  int task, thread;

  OwnFields(int task, int thread) : task(task), thread(thread) {
    std::string own = ":" + std::to_string(task) + ":" + std::to_string(thread) + ":";
    if (own.size() > sizeof text) return;
    char bytes[sizeof mask] = {};
    std::memset(bytes, 0xFF, own.size());
    std::memcpy(&mask, bytes, sizeof mask);
    text = 0;
    std::memcpy(&text, own.data(), own.size());
    length = own.size();
  }
};

// The common lines of a replay in one pass, fields and line end together: the line at `p` (a
// '\n' ends it before `end`) when it has 3 to LineFields::kMax fields, plain integers (an
// optional '-' and 1 to 18 digits) but the last, which may be a burst's duration that
// exact_decimal reads. Fills `f` as split_integers would (and the duration) and returns the
// line's '\n'; nullptr for any other line (a '\r', a field to report, an unusual number), which
// split_integers then reads.
[[gnu::always_inline]] inline const char* scan_plain_line(const char* p, const char* end,
                                                          const OwnFields& own, LineFields& f) {
  auto digit = [](char c) { return std::uint64_t{static_cast<unsigned char>(c)} - '0'; };
  std::int64_t* field = f.value;  // the next field's
  std::int64_t* const full = f.value + LineFields::kMax;
  auto done = [&](const char* nl) {
    f.count = static_cast<int>(field - f.value);
    f.has_rest = false;
    f.rest = std::string_view();
    f.has_seconds = false;
    return f.count >= 3 ? nl : nullptr;
  };
  // The record type (one or two digits), then most often the stream's own task and thread.
  if (std::uint64_t type = digit(p[0]); type < 10) {
    const char* after = p + 1;
    if (digit(*after) < 10) type = type * 10 + digit(*after++);
    std::uint64_t word;
    if (end - after >= 8 && (std::memcpy(&word, after, 8), (word & own.mask) == own.text)) {
      field[0] = static_cast<std::int64_t>(type);
      field[1] = own.task;
      field[2] = own.thread;
      field += 3;
      p = after + own.length;
    }
  }
  // Field by field from p, the start of one. Most are one digit: a test of the byte after it.
  for (;;) {
    if (std::uint64_t d = digit(p[0]); d < 10) {
      if (p[1] == ':') {
        *field++ = static_cast<std::int64_t>(d);
        p += 2;
        if (field == full) return nullptr;
        continue;
      }
      if (p[1] == '\n') {
        *field++ = static_cast<std::int64_t>(d);
        return done(p + 1);
      }
    }
    // Two characters: a peer, a tag, -1 for any thread.
    if (std::uint64_t d0 = digit(p[0]), d1 = d0 < 10 || p[0] == '-' ? digit(p[1]) : 10;
        d1 < 10 && p[2] == ':') {
      *field++ = d0 < 10 ? static_cast<std::int64_t>(d0 * 10 + d1) : -static_cast<std::int64_t>(d1);
      p += 3;
      if (field == full) return nullptr;
      continue;
    }
    // Any other: [-]digits, or the rest of the line.
    const char* start = p;
    bool negative = *p == '-';
    p += negative;
    std::uint64_t x = digit(*p);
    if (x < 10) {
      for (std::uint64_t d; (d = digit(*++p)) < 10;) x = x * 10 + d;
      if (p - start <= 18 + negative && (*p == ':' || *p == '\n')) {
        *field++ = negative ? -static_cast<std::int64_t>(x) : static_cast<std::int64_t>(x);
        if (*p == '\n') return done(p);
        ++p;
        if (field == full) return nullptr;
        continue;
      }
    }
    if (*p != '.' || field - f.value < 3) return nullptr;
    // A number with a fraction, last: split_integers leaves it as the rest.
    const char* stop = exact_decimal(start, end, f.seconds);
    if (stop == nullptr || *stop != '\n') return nullptr;
    f.count = static_cast<int>(field - f.value);
    f.has_rest = true;
    f.rest = std::string_view(start, static_cast<std::size_t>(stop - start));
    f.has_seconds = true;
    return stop;
  }
}

struct ParsedHeader {
  TraceHeader header;
  bool offsets = false;
  std::uint64_t offsets_at = 0;    // Y
  std::uint64_t records_at = 0;    // first line after the definitions
  std::uint64_t header_lines = 0;  // lines before records_at
};

ParsedHeader parse_header(const std::shared_ptr<const SharedFile>& file) {
  ParsedHeader out;
  out.header.kind = "dimemas";
  out.header.call_names = {std::string(kNoopCall)};
  out.header.path = file->path();
  LineReader lines(file, 0, file->size(), 1);
  std::string_view line;
  auto fail = [&](const std::string& message) {
    throw FormatError(file->path(), lines.line_number(), message);
  };
  if (!lines.next(line) || line.substr(0, 10) != "#DIMEMAS:\"")
    throw FormatError(file->path(), 1,
                      "not a Dimemas trace: the first line must start with #DIMEMAS:\"");
  std::string_view rest = line.substr(10);
  std::size_t quote = rest.find('"');
  if (quote == std::string_view::npos) fail("header: the trace name has no closing quote");
  out.header.name = std::string(rest.substr(0, quote));
  if (!valid_utf8(out.header.name)) fail("header: the trace name is not valid UTF-8");
  rest.remove_prefix(quote + 1);
  if (rest.empty() || rest.front() != ':') fail("header: ':' expected after the name");
  rest.remove_prefix(1);
  // X[,Y]
  std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) fail("header: missing the offsets field");
  std::string_view offsets = rest.substr(0, colon);
  rest.remove_prefix(colon + 1);
  std::size_t comma = offsets.find(',');
  std::string_view flag = offsets.substr(0, comma);
  if (flag == "1") {
    out.offsets = true;
  } else if (flag != "0") {
    fail("header: the offsets flag must be 0 or 1, not " + excerpt(flag));
  }
  if (comma != std::string_view::npos) {
    std::string_view at = offsets.substr(comma + 1);
    while (!at.empty() && at.back() == ' ') at.remove_suffix(1);
    auto [p, ec] = std::from_chars(at.data(), at.data() + at.size(), out.offsets_at);
    if (ec != std::errc() || p != at.data() + at.size())
      fail("header: the offsets position is not a number: " + excerpt(at));
  }
  if (out.offsets && (out.offsets_at == 0 || out.offsets_at >= file->size()))
    fail("header: offsets flag set but the offsets position " + std::to_string(out.offsets_at) +
         " is not inside the file");
  if (!out.offsets && out.offsets_at != 0) fail("header: an offsets position without the flag");
  // T(th0,...),C[,...]
  while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
  std::int64_t tasks = 0;
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), tasks);
  if (ec != std::errc() || tasks <= 0 || p == rest.data() + rest.size() || *p != '(')
    fail("header: expected TASKS(threads,...) after the offsets");
  if (tasks > kMaxTasks)
    fail("header: " + std::to_string(tasks) + " tasks; a trace has at most 2^24");
  rest.remove_prefix(static_cast<std::size_t>(p - rest.data()) + 1);
  std::size_t close = rest.find(')');
  if (close == std::string_view::npos) fail("header: the thread list has no ')'");
  std::string_view list = rest.substr(0, close);
  std::uint64_t streams = 0;
  while (!list.empty()) {
    std::size_t cut = list.find(',');
    std::string_view item = list.substr(0, cut);
    int threads = 0;
    auto [q, e] = std::from_chars(item.data(), item.data() + item.size(), threads);
    if (e != std::errc() || q != item.data() + item.size() || threads <= 0)
      fail("header: thread count " + excerpt(item) + " is not a positive integer");
    streams += static_cast<std::uint64_t>(threads);
    out.header.threads.push_back(threads);
    list = cut == std::string_view::npos ? std::string_view() : list.substr(cut + 1);
  }
  if (out.header.tasks() != tasks)
    fail("header: " + std::to_string(tasks) + " tasks but " + std::to_string(out.header.tasks()) +
         " thread counts");
  // Before anything is allocated per thread: each needs at least a record or an offset.
  if (streams > kMaxStreams)
    fail("header: " + std::to_string(streams) + " threads; a trace has at most 2^24 in all");
  if (streams > file->size())
    fail("header: " + std::to_string(streams) + " threads, more than a file of " +
         std::to_string(file->size()) + " bytes can hold (each needs a record or an offset)");

  // Definitions.
  std::set<int> defined;
  out.header_lines = 1;
  for (;;) {
    std::uint64_t at = lines.bytes_read();
    if (!lines.next(line) || line.substr(0, 2) != "d:") {
      out.records_at = at;
      break;
    }
    ++out.header_lines;
    Fields f(line.substr(2), ':', lines);
    int kind = f.integer<int>("definition type");
    if (kind == 2 || kind == 3) {
      out.header.notes.push_back(lines.where() + ": " + (kind == 2 ? "file" : "one-sided window") +
                                 " definition ignored (not modelled)");
      continue;
    }
    if (kind != 1) f.fail("unknown definition type " + std::to_string(kind));
    Communicator comm;
    comm.id = f.integer<int>("communicator id");
    if (!defined.insert(comm.id).second)
      f.fail("communicator " + std::to_string(comm.id) + " is defined twice");
    int size = f.count<int>("communicator size");
    for (int i = 0; i < size; ++i) {
      int task = f.integer<int>("task");
      if (task < 0 || task >= tasks)
        f.fail("communicator " + std::to_string(comm.id) + ": task " + std::to_string(task) +
               " does not exist");
      comm.tasks.push_back(task);
    }
    f.expect_end("communicator definition");
    if (int twice = repeated_member(comm.tasks); twice >= 0)
      f.fail("communicator " + std::to_string(comm.id) + " lists task " + std::to_string(twice) +
             " more than once");
    out.header.communicators.push_back(std::move(comm));
  }
  out.header.sort_communicators();
  return out;
}

// Reads the `s:` lines: where each thread's block starts.
std::vector<std::vector<Block>> read_offsets(const std::shared_ptr<const SharedFile>& file,
                                             const ParsedHeader& parsed) {
  const TraceHeader& header = parsed.header;
  std::vector<std::vector<Block>> blocks(static_cast<std::size_t>(header.tasks()));
  LineReader lines(file, parsed.offsets_at, file->size());
  std::string_view line;
  for (int task = 0; task < header.tasks(); ++task) {
    if (!lines.next(line))
      throw FormatError(file->path(), lines.line_number(),
                        "offsets: missing the s: line of task " + std::to_string(task));
    if (line.substr(0, 2) != "s:")
      throw FormatError(file->path(), lines.line_number(),
                        "offsets: expected an s: line (is the offsets position in the header "
                        "right?)");
    Fields f(line.substr(2), ':', lines);
    if (f.integer<int>("task") != task)
      f.fail("offsets: expected the s: line of task " + std::to_string(task));
    for (int thread = 0; thread < header.threads[static_cast<std::size_t>(task)]; ++thread) {
      auto at = f.integer<std::uint64_t>("offset");
      if (at < parsed.records_at || at >= parsed.offsets_at)
        f.fail("offsets: offset " + std::to_string(at) + " of task " + std::to_string(task) +
               " thread " + std::to_string(thread) + " is outside the records");
      blocks[static_cast<std::size_t>(task)].push_back(Block{at, parsed.offsets_at});
    }
    f.expect_end("offsets line");
  }
  return blocks;
}

// Without offsets: one pass over the records finds each thread's contiguous block.
std::vector<std::vector<Block>> scan_blocks(const std::shared_ptr<const SharedFile>& file,
                                            const ParsedHeader& parsed) {
  const TraceHeader& header = parsed.header;
  std::vector<std::vector<Block>> blocks(static_cast<std::size_t>(header.tasks()));
  for (int task = 0; task < header.tasks(); ++task)
    blocks[static_cast<std::size_t>(task)].resize(
        static_cast<std::size_t>(header.threads[static_cast<std::size_t>(task)]),
        Block{~0ull, ~0ull});
  LineReader lines(file, parsed.records_at, file->size(), parsed.header_lines + 1);
  std::string_view line;
  Block* current = nullptr;
  bool at_offsets = false;
  while (lines.next(line)) {
    if (line.empty()) continue;
    if (line.substr(0, 2) == "s:") {
      at_offsets = true;
      break;
    }
    LineFields f;
    split_integers(line, f, 3);  // (the streams read the rest)
    if (f.count < 3)
      throw FormatError(file->path(), lines.line_number(), "malformed record (op:task:thread:...)");
    std::int64_t task = f.value[1], thread = f.value[2];
    if (task < 0 || task >= header.tasks() || thread < 0 ||
        thread >= header.threads[static_cast<std::size_t>(task)])
      throw FormatError(file->path(), lines.line_number(),
                        "record of task " + std::to_string(task) + " thread " +
                            std::to_string(thread) + ", which the header does not declare");
    Block* block = &blocks[static_cast<std::size_t>(task)][static_cast<std::size_t>(thread)];
    if (block == current) continue;
    if (block->begin != ~0ull)
      throw FormatError(file->path(), lines.line_number(),
                        "records of task " + std::to_string(task) + " thread " +
                            std::to_string(thread) + " are not contiguous");
    if (current) current->end = lines.line_offset();
    block->begin = lines.line_offset();
    current = block;
  }
  if (current)
    current->end = at_offsets ? lines.line_offset() : parsed.records_at + lines.bytes_read();
  for (auto& task_blocks : blocks)
    for (Block& b : task_blocks)
      if (b.begin == ~0ull) b = Block{parsed.records_at, parsed.records_at};  // no records
  return blocks;
}

// What the fields of each record type are called, for error messages.
struct Shape {
  const char* record;
  const char* names[LineFields::kMax];
};
constexpr Shape kNoop = {"no-op (0)", {"record type", "task", "thread"}};
constexpr Shape kBurst = {"burst (1)", {"record type", "task", "thread", "duration"}};
constexpr Shape kSend = {"send (2)",
                         {"record type", "task", "thread", "destination task", "destination thread",
                          "size", "tag", "communicator", "synchronism"}};
constexpr Shape kRecv = {"receive (3)",
                         {"record type", "task", "thread", "source task", "source thread", "size",
                          "tag", "communicator", "receive type"}};
constexpr Shape kGlobal = {"global operation (10)",
                           {"record type", "task", "thread", "global operation", "communicator",
                            "root", "root thread", "bytes sent", "bytes received", "synchronism"}};
constexpr Shape kEvent = {"event (20)",
                          {"record type", "task", "thread", "event type", "event value"}};

class DimemasStream final : public LineRecordStream {
 public:
  DimemasStream(std::shared_ptr<const SharedFile> file, const TraceHeader& header, int task,
                int thread, Block block)
      : LineRecordStream(std::move(file), block.begin, block.end),
        header_(header),
        task_(task),
        thread_(thread),
        own_(task, thread) {}

  // (inlined into next_records, where a prefetched stream's records are read, with all it calls)
  [[gnu::always_inline]] bool next(Record& out) override {
    if (!read_fields()) return false;
    first_ = false;
    parse(out);
    return true;
  }
  void next_records(MarkedRecord* out, std::size_t n, std::size_t& read) override {
    read_records(*this, out, n, read);
  }

 private:
  // Splits the next record line of this thread into f_; false at the end of its records.
  [[gnu::always_inline]] bool read_fields() {
    // Most lines: read straight from the reader's buffer.
    std::string_view ahead = lines_.buffered_lines();
    if (!done_ && !ahead.empty()) {
      const char* stop = scan_plain_line(ahead.data(), ahead.data() + ahead.size(), own_, f_);
      if (stop != nullptr && f_.value[1] == task_ && f_.value[2] == thread_) {
        lines_.take_line(static_cast<std::size_t>(stop - ahead.data()) + 1);
        return true;
      }
    }
    return read_fields_slowly();
  }

  // The others, and what is wrong with them.
  __attribute__((noinline)) bool read_fields_slowly() {
    std::string_view line;
    for (;;) {
      if (done_ || !lines_.next(line)) return done_ = true, false;
      if (line.empty()) continue;
      if (line.substr(0, 2) == "s:") return done_ = true, false;
      split_integers(line, f_);
      if (f_.count < 3) integers(kNoop, 3);  // reports the bad or missing field
      auto task = f_.value[1], thread = f_.value[2];
      if (task != task_ || thread != thread_) {
        if (first_)
          fail("offset of task " + std::to_string(task_) + " thread " + std::to_string(thread_) +
               " points to a record of task " + std::to_string(task) + " thread " +
               std::to_string(thread));
        return done_ = true, false;
      }
      return true;
    }
  }

  // The checks of a record's fields are inline; what they say when they fail is not (so that the
  // record's parse stays one straight function).

  // Requires exactly `n` integer fields of `shape`; otherwise says which field is wrong.
  void integers(const Shape& shape, int n) const {
    if (f_.count != n || f_.has_rest) bad_fields(shape, n);
  }
  [[noreturn]] __attribute__((cold, noinline)) void bad_fields(const Shape& shape, int n) const {
    if (f_.count < n) {
      const char* name = shape.names[f_.count];
      std::string_view field = f_.rest_field();
      bool digits =
          !field.empty() &&
          field.find_first_not_of("0123456789", field[0] == '-') == std::string_view::npos &&
          field.size() > (field[0] == '-' ? 1u : 0u);
      if (f_.has_rest)
        fail(std::string("field '") + name +
             (digits ? "' is out of range (64-bit integers): " : "' is not an integer: ") +
             excerpt(field));
      fail(std::string("missing field '") + name + "'");
    }
    fail(std::string(shape.record) + " has more fields than expected (" + std::to_string(n) +
         " expected)");
  }

  std::int32_t int32(const Shape& shape, int i) const {
    std::int64_t v = f_.value[i];
    if (v < std::numeric_limits<std::int32_t>::min() ||
        v > std::numeric_limits<std::int32_t>::max())
      out_of_range(shape, i);
    return static_cast<std::int32_t>(v);
  }
  [[noreturn]] __attribute__((cold, noinline)) void out_of_range(const Shape& shape, int i) const {
    fail(std::string("field '") + shape.names[i] +
         "' is out of range: " + std::to_string(f_.value[i]));
  }

  std::int64_t count(const Shape& shape, int i) const {
    if (f_.value[i] < 0) negative(shape, i);
    return f_.value[i];
  }
  [[noreturn]] __attribute__((cold, noinline)) void negative(const Shape& shape, int i) const {
    fail(std::string("field '") + shape.names[i] + "' is negative: " + std::to_string(f_.value[i]));
  }

  int peer(const Shape& shape, int i) const {
    std::int64_t task = f_.value[i];
    if (task < 0 || task >= header_.tasks()) not_a_task(shape, i);
    return static_cast<int>(task);
  }
  [[noreturn]] __attribute__((cold, noinline)) void not_a_task(const Shape& shape, int i) const {
    fail(std::string(shape.names[i]) + " " + std::to_string(f_.value[i]) +
         " is not a task of the trace (0.." + std::to_string(header_.tasks() - 1) + ")");
  }

  // A collective's communicator, which a d: line must define.
  int comm(const Shape& shape, int i) {
    int id = int32(shape, i);
    if (!last_comm_ || id != *last_comm_) {
      if (header_.communicator(id) == nullptr)
        fail("unknown communicator " + std::to_string(id) + " (no d: line defines it)");
      last_comm_ = id;
    }
    return id;
  }

  // The peer's thread of a send or receive: -1 for any (-2 too, as Dimemas reads it).
  std::int32_t peer_thread(const Shape& shape, int task_field, int i) const {
    std::int32_t thread = int32(shape, i);
    if (thread == -2) return -1;
    int threads = header_.threads[static_cast<std::size_t>(f_.value[task_field])];
    if (thread < -1 || thread >= threads) not_a_thread(shape, task_field, i);
    return thread;
  }
  [[noreturn]] __attribute__((cold, noinline)) void not_a_thread(const Shape& shape, int task_field,
                                                                 int i) const {
    int threads = header_.threads[static_cast<std::size_t>(f_.value[task_field])];
    fail(std::string(shape.names[i]) + " " + std::to_string(f_.value[i]) +
         " is not a thread of task " + std::to_string(f_.value[task_field]) + " (0.." +
         std::to_string(threads - 1) + ", or -1 for any)");
  }

  // Records 1 and 11: the duration is the one field that is not an integer.
  double duration() const {
    if (f_.count == 4 && !f_.has_rest) return static_cast<double>(f_.value[3]);
    if (f_.count != 3 || !f_.has_rest) integers(kBurst, 4);
    if (f_.has_seconds) return f_.seconds;
    if (f_.rest.find(':') != std::string_view::npos)
      fail("burst has more fields than expected (4 expected)");
    double seconds = 0;
    if (!parse_decimal(f_.rest, seconds))
      fail(std::string("field 'duration' ") + number_problem(f_.rest) + ": " + excerpt(f_.rest));
    return seconds;
  }

  // Records 2 and 3: peer task and thread, size, tag and communicator in fields 3 to 7. The
  // communicator only matches messages (as in Dimemas): it needs no d: line.
  void point_to_point(RecordType type, const Shape& shape, Record& out) {
    integers(shape, 9);
    out.type = type;
    out.peer = peer(shape, 3);
    out.peer_thread = peer_thread(shape, 3, 4);
    out.bytes = count(shape, 5);
    out.tag = int32(shape, 6);
    out.comm = int32(shape, 7);
  }

  [[gnu::always_inline]] inline void parse(Record& out) {
    out = Record{};
    switch (f_.value[0]) {
      case 0:
        integers(kNoop, 3);
        out.type = RecordType::Call;  // event_value 0: kNoopCall, the header's only call name
        return;
      case 1:
      case 11:
        out.type = RecordType::Burst;
        out.amount = duration();
        if (out.amount < 0) fail("negative burst duration");
        if (f_.value[0] == 11) out.flags = kAccelerator;
        return;
      case 2: {
        point_to_point(RecordType::Send, kSend, out);
        std::int64_t bits = f_.value[8];
        if (bits < 0 || bits > 3)
          fail("synchronism must be 0..3 (bit 0 rendezvous, bit 1 immediate), not " +
               std::to_string(bits));
        if (bits & 1) out.flags |= kRendezvous;
        if (bits & 2) out.flags |= kImmediate;  // no request: Dimemas cannot wait for sends
        // Dimemas 5.5 (its reader's is_acc_comm) sends to its own task by rendezvous whatever
        // the eager limit, unless the record names the sending thread itself: between two
        // threads of a task, and an MPI send to self (its thread, -1, is not the sender's).
        if (out.peer == task_ && out.peer_thread != thread_)
          out.flags |= kRendezvous | kProtocolFixed;
        return;
      }
      case 3: {
        point_to_point(RecordType::Recv, kRecv, out);
        std::int64_t type = f_.value[8];
        if (type == 0) return;
        if (type == 1) {
          out.flags = kImmediate;
          out.request = next_request_++;
          pending_.push_back(
              PendingRecv{out.peer, out.peer_thread, out.tag, out.comm, out.request});
          return;
        }
        if (type != 2)
          fail("receive type must be 0 (recv), 1 (irecv) or 2 (wait), not " + std::to_string(type));
        auto it = std::find_if(pending_.begin(), pending_.end(), [&](const PendingRecv& p) {
          return p.source == out.peer && p.source_thread == out.peer_thread && p.tag == out.tag &&
                 p.comm == out.comm;
        });
        if (it == pending_.end())
          fail("wait (receive type 2) with no earlier immediate receive from task " +
               std::to_string(out.peer) + " tag " + std::to_string(out.tag) + " comm " +
               std::to_string(out.comm));
        Record wait;
        wait.type = RecordType::Wait;
        wait.request = it->request;
        pending_.erase(it);
        out = wait;
        return;
      }
      case 10: {
        integers(kGlobal, f_.count == 9 && !f_.has_rest ? 9 : 10);
        out.type = RecordType::GlobalOp;
        out.op = int32(kGlobal, 3);
        if (out.op < 0 || out.op >= kGlobalOpCount)
          fail("unknown global operation " + std::to_string(out.op) + " (0.." +
               std::to_string(kGlobalOpCount - 1) + ")");
        if (f_.value[4] == 0) {  // Dimemas 5.5 skips it: a pseudo-collective of accelerators
          out = Record{};
          out.type = RecordType::Call;
          return;
        }
        out.comm = comm(kGlobal, 4);
        const Communicator* c = header_.communicator(out.comm);
        if (std::find(c->tasks.begin(), c->tasks.end(), task_) == c->tasks.end())
          fail("task " + std::to_string(task_) + " is not in communicator " +
               std::to_string(out.comm));
        // The root field is a flag (1 = this task), but MPI_Reduce's is the root's task id: so
        // Dimemas 5.5 reads it (communic.c, GLOBAL_operation).
        std::int64_t root = out.op == kReduce ? task_ : 1;
        out.peer = f_.value[5] == root ? task_ : -1;
        out.bytes = count(kGlobal, 7);
        out.bytes_recv = count(kGlobal, 8);
        std::int64_t synch = f_.count == 10 ? f_.value[9] : 1;
        if (synch == 0) out.flags = kImmediate;
        else if (synch == 2) out.flags = kCollectiveWait;
        else if (synch != 1 && synch != 3)
          fail("global operation synchronism must be 0..3, not " + std::to_string(synch));
        return;
      }
      case 20:
        integers(kEvent, 5);
        out.type = RecordType::Event;
        out.event_type = static_cast<std::uint64_t>(count(kEvent, 3));
        out.event_value = static_cast<std::uint64_t>(count(kEvent, 4));
        return;
      default:
        fail("unknown record type " + std::to_string(f_.value[0]) +
             " (Dimemas 5 has 0, 1, 2, 3, 10, 11 and 20)");
    }
  }

  struct PendingRecv {
    int source, source_thread;
    std::int64_t tag;
    int comm;
    std::uint64_t request;
  };

  const TraceHeader& header_;
  int task_, thread_;
  OwnFields own_;
  LineFields f_;
  std::optional<int> last_comm_;  // the last communicator found in the header (most records
                                  // repeat it)
  bool first_ = true, done_ = false;
  std::uint64_t next_request_ = 1;
  std::vector<PendingRecv> pending_;  // immediate receives not yet waited for, oldest first
};

class DimemasTrace final : public Trace {
 public:
  explicit DimemasTrace(const std::string& path) : file_(SharedFile::open(path)) {
    ParsedHeader parsed = parse_header(file_);
    blocks_ = parsed.offsets ? read_offsets(file_, parsed) : scan_blocks(file_, parsed);
    header_ = std::move(parsed.header);
  }

  const TraceHeader& header() const override { return header_; }

  std::unique_ptr<RecordStream> open(int task, int thread) const override {
    header_.check_stream(task, thread);
    return std::make_unique<DimemasStream>(
        file_, header_, task, thread,
        blocks_[static_cast<std::size_t>(task)][static_cast<std::size_t>(thread)]);
  }

  std::uint64_t size_bytes() const override { return file_->size(); }

 private:
  std::shared_ptr<const SharedFile> file_;
  TraceHeader header_;
  std::vector<std::vector<Block>> blocks_;
};

// ---- Writer --------------------------------------------------------------------------------

constexpr int kOffsetDigits = 15;  // room kept in the header for the offsets position

// Fixed notation, shortest string that reads back as the same double.
std::string seconds_text(double seconds) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, seconds, std::chars_format::fixed);
  if (ec != std::errc()) throw std::runtime_error("burst duration out of range");
  return std::string(buffer, end);
}

class DimemasWriter final : public TraceWriter {
 public:
  DimemasWriter(const std::string& path, const TraceHeader& header)
      : path_(path), header_(header), file_(nullptr) {
    if (header.kind == "tasks")
      throw std::invalid_argument(
          "a tasks trace cannot be converted to Dimemas (it has task "
          "instances and dependencies, which Dimemas traces cannot hold)");
    file_ = std::fopen(path.c_str(), "wb");
    if (file_ == nullptr) throw FormatError(path, 0, "cannot create file");
    offsets_.resize(static_cast<std::size_t>(header.tasks()));
    // Dimemas 5.5 takes a collective on communicator 0 for a synchronisation of accelerators
    // and skips it: the native traces' MPI_COMM_WORLD (0) is written as the lowest id unused.
    while (std::any_of(header.communicators.begin(), header.communicators.end(),
                       [this](const Communicator& c) { return c.id == zero_as_; }))
      ++zero_as_;
    write_header(0);
    for (const Communicator& c : header.communicators) {
      std::fprintf(file_, "d:1:%d:%zu", comm(c.id), c.tasks.size());
      for (int task : c.tasks) std::fprintf(file_, ":%d", task);
      std::fputc('\n', file_);
    }
  }

  ~DimemasWriter() override {
    if (file_) std::fclose(file_);
  }

  void begin(int task, int thread) override {
    close_block();
    task_ = task;
    thread_ = thread;
    offsets_[static_cast<std::size_t>(task)].push_back(
        static_cast<std::uint64_t>(std::ftell(file_)));
    block_empty_ = true;
    irecvs_.clear();
    icolls_.clear();
  }

  void write(const Record& r) override {
    if (r.type == RecordType::Wait && icolls_.count(r.request) != 0) {
      // Dimemas' wait for a collective names none: it takes one of the thread's that has
      // ended (the same when they are waited for in the order they end).
      auto it = icolls_.find(r.request);
      if (it != icolls_.begin()) ++unordered_collective_waits_;  // (requests grow as they start)
      Record wait = it->second;
      wait.flags = kCollectiveWait;
      icolls_.erase(it);
      write(wait);
      return;
    }
    if (r.type == RecordType::Wait && irecvs_.count(r.request) == 0) {
      ++dropped_send_waits_;  // Dimemas has no wait for a send (it costs nothing either way)
      return;
    }
    // Dimemas 5.5 never starts a thread whose first record is a communication (a send the
    // overlap kinds move before the first burst): it waits for it to the end, as for a
    // deadlock. An empty burst first starts it and changes nothing.
    if (block_empty_ && r.type != RecordType::Burst)
      std::fprintf(file_, "1:%d:%d:%s\n", task_, thread_, seconds_text(0).c_str());
    block_empty_ = false;
    switch (r.type) {
      case RecordType::Burst: {
        double seconds = (r.flags & kInstructions) ? r.amount / (header_.mips * 1e6) : r.amount;
        std::fprintf(file_, "%d:%d:%d:%s\n", (r.flags & kAccelerator) ? 11 : 1, task_, thread_,
                     seconds_text(seconds).c_str());
        break;
      }
      case RecordType::Send:
        std::fprintf(file_, "2:%d:%d:%d:%d:%" PRId64 ":%" PRId64 ":%d:%d\n", task_, thread_, r.peer,
                     r.peer_thread, r.bytes, r.tag, comm(r.comm),
                     ((r.flags & kRendezvous) ? 1 : 0) | (r.immediate() ? 2 : 0));
        break;
      case RecordType::Recv:
        write_recv(r, r.immediate() ? 1 : 0);
        if (r.immediate()) irecvs_.emplace(r.request, r);
        break;
      case RecordType::Wait: {
        auto it = irecvs_.find(r.request);
        write_recv(it->second, 2);
        irecvs_.erase(it);
        break;
      }
      case RecordType::GlobalOp:
        if (r.immediate() && r.request != 0) icolls_.emplace(r.request, r);
        std::fprintf(file_, "10:%d:%d:%d:%d:%d:0:%" PRId64 ":%" PRId64 ":%d\n", task_, thread_,
                     r.op, comm(r.comm), root_field(r), r.bytes, r.bytes_recv,
                     (r.flags & kImmediate)        ? 0
                     : (r.flags & kCollectiveWait) ? 2
                                                   : 1);
        break;
      case RecordType::Event:
        std::fprintf(file_, "20:%d:%d:%" PRIu64 ":%" PRIu64 "\n", task_, thread_, r.event_type,
                     r.event_value);
        break;
      case RecordType::Call:  // Dimemas' no-op: an MPI call without communication
        std::fprintf(file_, "0:%d:%d\n", task_, thread_);
        break;
      case RecordType::Spawn:
      case RecordType::After:
        throw std::invalid_argument("task records (spawn, after) have no Dimemas equivalent");
    }
  }

  void finish() override {
    close_block();
    auto offsets_at = static_cast<std::uint64_t>(std::ftell(file_));
    for (int task = 0; task < header_.tasks(); ++task) {
      std::fprintf(file_, "s:%d", task);
      for (std::uint64_t at : offsets_[static_cast<std::size_t>(task)])
        std::fprintf(file_, ":%" PRIu64, at);
      std::fputc('\n', file_);
    }
    std::fseek(file_, 0, SEEK_SET);
    write_header(offsets_at);
    bool failed = std::ferror(file_) != 0;
    failed |= std::fclose(file_) != 0;
    file_ = nullptr;
    if (failed) throw FormatError(path_, 0, "write error");
    if (dropped_send_waits_ > 0)
      std::fprintf(stderr,
                   "note: %s: %" PRIu64
                   " waits for immediate sends left out (Dimemas has no "
                   "record for them; they cost nothing)\n",
                   path_.c_str(), dropped_send_waits_);
    if (unordered_collective_waits_ > 0)
      std::fprintf(stderr,
                   "note: %s: %" PRIu64
                   " waits for non-blocking collectives wait for one started after another "
                   "still pending: a Dimemas wait names no collective and takes any that has "
                   "ended, so where they end in another order than the set waits for them, the "
                   "export's times differ from the set's\n",
                   path_.c_str(), unordered_collective_waits_);
  }

 private:
  // The header keeps its length whatever the offsets position, so it can be rewritten in place.
  void write_header(std::uint64_t offsets_at) {
    std::string position = std::to_string(offsets_at);
    std::string line = "#DIMEMAS:\"" + header_.name + "\":1," + position + ":" +
                       std::to_string(header_.tasks()) + "(";
    for (int i = 0; i < header_.tasks(); ++i)
      line += (i ? "," : "") + std::to_string(header_.threads[static_cast<std::size_t>(i)]);
    line += ")," + std::to_string(header_.communicators.size());
    line += std::string(kOffsetDigits - position.size(), ' ');
    line += '\n';
    std::fputs(line.c_str(), file_);
  }

  void write_recv(const Record& r, int type) {
    std::fprintf(file_, "3:%d:%d:%d:%d:%" PRId64 ":%" PRId64 ":%d:%d\n", task_, thread_, r.peer,
                 r.peer_thread, r.bytes, r.tag, comm(r.comm), type);
  }

  int comm(int id) const { return id == 0 ? zero_as_ : id; }

  // A collective's root field as Dimemas 5.5 reads it: a flag, but MPI_Reduce's root task id
  // (-1 on the other members: only whether it is this task is known).
  int root_field(const Record& r) const {
    bool root = r.peer == task_;
    if (r.op == kReduce) return root ? task_ : -1;
    return root ? 1 : 0;
  }

  // A thread without records still needs a record where its offset points.
  void close_block() {
    if (task_ >= 0 && block_empty_) std::fprintf(file_, "0:%d:%d\n", task_, thread_);
    block_empty_ = false;
  }

  std::string path_;
  TraceHeader header_;
  std::FILE* file_;
  std::vector<std::vector<std::uint64_t>> offsets_;
  int task_ = -1, thread_ = -1;
  bool block_empty_ = false;
  std::map<std::uint64_t, Record> irecvs_;  // immediate receives not yet waited for
  std::map<std::uint64_t, Record> icolls_;  // immediate collectives not yet waited for
  std::uint64_t dropped_send_waits_ = 0;
  std::uint64_t unordered_collective_waits_ = 0;
  int zero_as_ = 1;  // the id communicator 0 is written with
};

}  // namespace

std::unique_ptr<Trace> open_dimemas(const std::string& path) {
  return std::make_unique<DimemasTrace>(path);
}

std::unique_ptr<TraceWriter> make_dimemas_writer(const std::string& path,
                                                 const TraceHeader& header) {
  if (header.name.find('"') != std::string::npos)
    throw std::invalid_argument("a Dimemas trace name cannot contain '\"'");
  return std::make_unique<DimemasWriter>(path, header);
}

}  // namespace tareador::trace
