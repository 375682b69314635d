// Reading Paraver traces: the .prv body with a hand-written parser on every core, the .pcf and
// the .row. Errors name file:line; the body's line is counted only when something is wrong.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "tareador/trace.h"
#include "tracefmt/parallel.h"
#include "viz/timeline.h"

namespace tareador::view {

namespace {

// Opened as every input of the project is (trace::open_input_file: a regular file, opened
// without blocking), its errors as the viewer's.
trace::InputFile open_input(const std::string& path) {
  try {
    return trace::open_input_file(path);
  } catch (const trace::FormatError& e) {
    throw LoadError(path, 0, e.message());
  }
}

std::string sibling(const std::string& prv, const char* extension) {
  std::string base = prv;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".prv") == 0)
    base.resize(base.size() - 4);
  return base + extension;
}

// The whole file, mapped read-only.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    trace::InputFile file = open_input(path);
    int fd = file.fd;
    size_ = static_cast<std::size_t>(file.size);
    if (size_ > 0) {
      // Populated at once: cheaper than a page fault per 4 KB while parsing.
      void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (map == MAP_FAILED) {
        int error = errno;
        ::close(fd);
        throw LoadError(path, 0, std::string("cannot map: ") + std::strerror(error));
      }
      ::madvise(map, size_, MADV_SEQUENTIAL | MADV_WILLNEED);
      data_ = static_cast<const char*>(map);
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

std::uint64_t line_of(const char* data, const char* at) {
  return 1 + static_cast<std::uint64_t>(std::count(data, at, '\n'));
}

std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// A text file as numbered lines (the small files: .pcf, .row).
std::vector<std::string> read_lines(const std::string& path) {
  std::string text;
  try {
    text = trace::read_input_file(path, trace::kMaxSmallFileBytes, "a .pcf or .row file");
  } catch (const trace::FormatError& e) {
    throw LoadError(path, 0, e.message());
  }
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// ---- The header: #Paraver (date):END[_ns]:RESOURCES:APPS:TASKS(threads:node,...)...,COMMS ----

// What a header may declare: rows and CPUs are labelled and indexed one by one, so a few
// bytes must not declare billions of them.
constexpr std::uint64_t kMaxRows = 1u << 20;
constexpr std::uint64_t kMaxCpus = 1u << 20;
// The viewer keeps a legend entry for every state value up to the largest met (Paraver's
// states are small numbers): a larger one is refused, not given gigabytes of legend.
constexpr std::uint64_t kMaxStateValue = 65535;

struct Header {
  Time scale = 1;          // ns per unit of the file's times (1000 for microseconds)
  Time end = 0;            // in ns
  std::uint32_t cpus = 0;  // 0: no resource information (any CPU id is taken)
  // Tasks are flattened over applications, threads over tasks (the thread rows).
  std::vector<std::uint32_t> first_task;                  // per application
  std::vector<std::uint32_t> first_thread, thread_count;  // per task
  std::uint32_t thread_rows = 0;
  std::size_t tasks_of(std::size_t application) const {  // 0-based
    std::size_t next =
        application + 1 < first_task.size() ? first_task[application + 1] : first_thread.size();
    return next - first_task[application];
  }
};

class HeaderParser {
 public:
  HeaderParser(const std::string& path, std::string_view line) : path_(path), text_(line) {}

  Header parse() {
    Header h;
    if (text_.substr(0, 9) != "#Paraver ")
      fail("not a Paraver trace: the first line must start with '#Paraver ('");
    std::size_t close = text_.find(')');
    if (close == std::string_view::npos) fail("malformed Paraver header: the date has no ')'");
    at_ = close + 1;
    expect(':');
    std::uint64_t end = number("the end time");
    if (peek() == '_') {
      std::size_t colon = text_.find(':', at_);
      std::string_view unit = text_.substr(at_, colon - at_);
      if (unit == "_ns") h.scale = 1;
      else if (unit == "_us") h.scale = 1000;
      else fail("unknown time unit " + trace::excerpt(unit.substr(1)) + " (expected ns or us)");
      at_ = colon;
    } else {
      h.scale = 1000;  // Paraver: no unit means microseconds
    }
    if (end > static_cast<std::uint64_t>(INT64_MAX) / static_cast<std::uint64_t>(h.scale))
      fail("the end time " + std::to_string(end) + " is too large (at most 2^63 ns)");
    h.end = static_cast<Time>(end) * h.scale;
    expect(':');
    std::uint64_t nodes = number("the number of nodes");
    if (peek() == '(') {
      ++at_;
      for (std::uint64_t n = 0; n < nodes; ++n) {
        if (n) expect(',');
        std::uint64_t cpus = number("a node's CPU count");
        if (cpus > kMaxCpus - h.cpus) too_many("CPUs", kMaxCpus);
        h.cpus += static_cast<std::uint32_t>(cpus);
      }
      expect(')');
    } else {
      if (nodes > kMaxCpus) too_many("CPUs", kMaxCpus);
      h.cpus = static_cast<std::uint32_t>(nodes);  // N nodes of one CPU each (0: no resources)
    }
    expect(':');
    std::uint64_t applications = number("the number of applications");
    if (applications == 0) fail("malformed Paraver header: no application");
    for (std::uint64_t a = 0; a < applications; ++a) {
      if (a) {
        if (peek() != ':' && peek() != ',')
          fail("malformed Paraver header: expected ':' between applications");
        ++at_;
      } else {
        expect(':');
      }
      std::uint64_t tasks = number("an application's number of tasks");
      expect('(');
      h.first_task.push_back(static_cast<std::uint32_t>(h.first_thread.size()));
      for (std::uint64_t t = 0; t < tasks; ++t) {
        if (t) expect(',');
        std::uint64_t threads = number("a task's number of threads");
        if (threads == 0) fail("malformed Paraver header: a task has no thread");
        if (threads > kMaxRows - h.thread_rows) too_many("threads", kMaxRows);
        expect(':');
        number("a task's node");
        h.first_thread.push_back(h.thread_rows);
        h.thread_count.push_back(static_cast<std::uint32_t>(threads));
        h.thread_rows += static_cast<std::uint32_t>(threads);
      }
      expect(')');
    }
    return h;  // what follows (",COMMS") only announces the c: lines, skipped with comments
  }

 private:
  [[noreturn]] void fail(const std::string& message) { throw LoadError(path_, 1, message); }
  [[noreturn]] void too_many(const char* what, std::uint64_t limit) {
    fail(std::string("the header declares more than ") + std::to_string(limit) + " " + what +
         " (the most this viewer takes)");
  }
  char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  void expect(char c) {
    if (peek() != c)
      fail(std::string("malformed Paraver header: expected '") + c + "' at column " +
           std::to_string(at_ + 1));
    ++at_;
  }
  // A number of at most 19 significant digits (one more is left for the caller to refuse).
  // Leading zeros do not count: a header written before its body has its end time padded
  // (BSC's ovni and `replay` write 20 digits).
  std::uint64_t number(const char* what) {
    std::size_t start = at_;
    while (at_ < text_.size() && text_[at_] == '0') ++at_;
    std::size_t significant = at_;
    std::uint64_t v = 0;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9' && at_ - significant < 19)
      v = v * 10 + static_cast<std::uint64_t>(text_[at_++] - '0');
    if (at_ == start)
      fail(std::string("malformed Paraver header: expected ") + what + " at column " +
           std::to_string(at_ + 1));
    return v;
  }
  const std::string& path_;
  std::string_view text_;
  std::size_t at_ = 0;
};

// ---- The body: records 1 (state), 2 (events), 3 (communication), on every core ---------------

// A chunk's records: the arrays of the rows it met, found by the row's slot (a header may
// declare a million rows for a few records: a row costs the chunk 4 bytes until it has one).
struct ChunkResult {
  static constexpr std::uint32_t kNoSlot = 0xffffffffu;
  std::vector<std::uint32_t> slot;  // per thread row
  std::vector<Intervals> states;    // per slot
  std::vector<Events> events;
  std::vector<Message> messages;
  const char* failed_at = nullptr;  // set with `failure` when the chunk has a bad line
  std::string failure;
};

class BodyParser {
 public:
  static constexpr std::size_t kShortestLine = 24;  // "1:1:1:1:1:1000:2000:1\n" and up

  // Room is reserved for as many records as `bytes` could hold if all went to each row: what
  // is never written costs address space, not memory, and the arrays are never copied to grow.
  BodyParser(const Header& h, ChunkResult& out, std::size_t bytes)
      : header_(h),
        out_(out),
        per_row_(bytes / kShortestLine / std::max<std::size_t>(1, h.thread_rows) + 16) {
    out_.slot.assign(h.thread_rows, ChunkResult::kNoSlot);
    out_.messages.reserve(bytes / kShortestLine / 2);
  }

  // Parses [p, end), which starts at a line; `tick` is called every few megabytes with the
  // bytes done since the last call and returns false to stop.
  template <typename Tick>
  void parse(const char* p, const char* end, Tick&& tick) {
    constexpr std::size_t kTickBytes = 4 << 20;
    const char* next_tick = p + kTickBytes;
    const char* last_tick = p;
    while (p < end) {
      if (p >= next_tick) {
        if (!tick(static_cast<std::size_t>(p - last_tick))) return;
        last_tick = p;
        next_tick = p + kTickBytes;
      }
      line_ = p;
      end_ = end;
      char kind = *p;
      if (kind == '1' || kind == '2' || kind == '3') {
        if (p + 1 >= end || p[1] != ':') {
          fail("malformed record: expected ':' after its type");
          return;
        }
        p_ = p + 2;
        bool ok = kind == '1' ? state() : kind == '2' ? events() : communication();
        if (!ok) return;
        p = p_;
      } else if (kind == '\n' || kind == '\r' || kind == '#' || kind == 'c' || kind == 'C' ||
                 kind == '4') {
        // Empty lines, comments, communicator definitions and the legacy global-operation
        // records (4), which Paraver ignores too.
        const char* eol =
            static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
        p = eol ? eol + 1 : end;
      } else {
        fail(std::string("unknown record type '") + kind + "' (expected 1, 2 or 3)");
        return;
      }
    }
    tick(static_cast<std::size_t>(p - last_tick));
  }

 private:
  // The next unsigned field, then ':' or, when `last`, the end of the line. The hot path of
  // the load: digits are read without checks; too many of them, or none, take the slow path.
  bool field(std::uint64_t& v, bool last, const char* what) {
    return number(v, what) && (last ? end_of_line(what) : colon(what));
  }
  bool signed_field(std::int64_t& v, bool last, const char* what) {
    bool negative = p_ < end_ && *p_ == '-';
    if (negative) ++p_;
    std::uint64_t x;
    if (!number(x, what)) return false;
    if (x > static_cast<std::uint64_t>(INT64_MAX)) return fail(std::string(what) + " is too large");
    v = negative ? -static_cast<std::int64_t>(x) : static_cast<std::int64_t>(x);
    return last ? end_of_line(what) : colon(what);
  }
  bool number(std::uint64_t& v, const char* what) {
    const char* start = p_;
    std::uint64_t x = 0;
    for (unsigned digit; p_ < end_ && (digit = static_cast<unsigned>(*p_ - '0')) < 10; ++p_)
      x = x * 10 + digit;
    if (__builtin_expect(p_ == start || p_ - start > 19, 0)) return bad_number(start, v, what);
    v = x;
    return true;
  }
  // No digits, or 20 digits and more: an error unless it still fits in 64 bits.
  [[gnu::noinline, gnu::cold]] bool bad_number(const char* start, std::uint64_t& v,
                                               const char* what) {
    if (p_ == start) {
      if (p_ >= end_ || *p_ == '\n' || *p_ == '\r')
        return fail(std::string("the record ends before ") + what);
      return fail(std::string("expected a number for ") + what + ", found '" + *p_ + "'");
    }
    std::uint64_t x = 0;
    for (const char* d = start; d < p_; ++d)
      if (__builtin_mul_overflow(x, 10, &x) ||
          __builtin_add_overflow(x, static_cast<unsigned>(*d - '0'), &x))
        return fail(std::string(what) + " is too large");
    v = x;
    return true;
  }
  bool colon(const char* what) {
    if (__builtin_expect(p_ < end_ && *p_ == ':', 1)) {
      ++p_;
      return true;
    }
    return bad_separator(what);
  }
  [[gnu::noinline, gnu::cold]] bool bad_separator(const char* what) {
    if (p_ >= end_ || *p_ == '\n' || *p_ == '\r')
      return fail(std::string("the record ends after ") + what);
    return fail(std::string("unexpected '") + *p_ + "' after " + what);
  }
  bool end_of_line(const char* what) {
    if (p_ < end_ && *p_ == '\r') ++p_;
    if (p_ >= end_) return true;
    if (__builtin_expect(*p_ == '\n', 1)) {
      ++p_;
      return true;
    }
    return bad_end(what);
  }
  [[gnu::noinline, gnu::cold]] bool bad_end(const char* what) {
    return fail(std::string("unexpected '") + *p_ + "' after " + what + " (too many fields?)");
  }

  // The slot of a row's arrays, made at its first record.
  std::uint32_t slot(std::uint32_t row) {
    std::uint32_t& slot = out_.slot[row];
    if (__builtin_expect(slot == ChunkResult::kNoSlot, 0)) {
      slot = static_cast<std::uint32_t>(out_.states.size());
      out_.states.emplace_back().reserve(per_row_);
      out_.events.emplace_back().reserve(2 * per_row_);
    }
    return slot;
  }

  bool thread_row(std::uint64_t appl, std::uint64_t task, std::uint64_t thread,
                  std::uint32_t& row) {
    if (__builtin_expect(appl - 1 < header_.first_task.size(), 1)) {
      std::size_t flat = header_.first_task[appl - 1] + task - 1;
      if (task - 1 < header_.tasks_of(appl - 1) && thread - 1 < header_.thread_count[flat]) {
        row = header_.first_thread[flat] + static_cast<std::uint32_t>(thread - 1);
        return true;
      }
    }
    return bad_thread(appl, task, thread);
  }
  [[gnu::noinline, gnu::cold]] bool bad_thread(std::uint64_t appl, std::uint64_t task,
                                               std::uint64_t thread) {
    if (appl < 1 || appl > header_.first_task.size())
      return fail("application " + std::to_string(appl) + " is not in the header (" +
                  std::to_string(header_.first_task.size()) + " application(s))");
    std::size_t tasks = header_.tasks_of(appl - 1);
    if (task < 1 || task > tasks)
      return fail("task " + std::to_string(task) + " is not in the header (application " +
                  std::to_string(appl) + " has " + std::to_string(tasks) + " tasks)");
    std::size_t flat = header_.first_task[appl - 1] + task - 1;
    return fail("thread " + std::to_string(thread) + " is not in the header (task " +
                std::to_string(task) + " has " + std::to_string(header_.thread_count[flat]) +
                " threads)");
  }
  bool cpu(std::uint64_t id, std::uint32_t& out) {
    if (__builtin_expect((header_.cpus == 0 || id <= header_.cpus) && id <= kMaxCpus, 1)) {
      out = static_cast<std::uint32_t>(id);
      return true;
    }
    return bad_cpu(id);
  }
  [[gnu::noinline, gnu::cold]] bool bad_cpu(std::uint64_t id) {
    if (id > kMaxCpus) return fail("CPU id " + std::to_string(id) + " is too large");
    return fail("CPU " + std::to_string(id) + " is not in the header (" +
                std::to_string(header_.cpus) + " CPUs)");
  }
  bool time(std::uint64_t raw, Time& out, const char* what) {
    if (__builtin_expect(raw > static_cast<std::uint64_t>(INT64_MAX / header_.scale), 0))
      return fail(std::string(what) + " is too large");
    out = static_cast<Time>(raw) * header_.scale;
    return true;
  }

  // 1:cpu:appl:task:thread:begin:end:state
  bool state() {
    std::uint64_t c, a, t, th, b, e, s;
    if (!field(c, false, "the CPU") || !field(a, false, "the application") ||
        !field(t, false, "the task") || !field(th, false, "the thread") ||
        !field(b, false, "the begin time") || !field(e, false, "the end time") ||
        !field(s, true, "the state"))
      return false;
    std::uint32_t row = 0, cpu_id = 0;
    Time begin, end;
    if (!thread_row(a, t, th, row) || !cpu(c, cpu_id) || !time(b, begin, "the begin time") ||
        !time(e, end, "the end time"))
      return false;
    if (end < begin)
      return fail("the state ends (" + std::to_string(e) + ") before it begins (" +
                  std::to_string(b) + ")");
    if (s > kMaxStateValue)
      return fail("state value " + std::to_string(s) + " above " + std::to_string(kMaxStateValue) +
                  " (the viewer's limit)");
    if (end > begin) out_.states[slot(row)].add(begin, end, static_cast<std::uint32_t>(s), cpu_id);
    return true;
  }

  // 2:cpu:appl:task:thread:time:type:value[:type:value...]
  bool events() {
    std::uint64_t c, a, t, th, when;
    if (!field(c, false, "the CPU") || !field(a, false, "the application") ||
        !field(t, false, "the task") || !field(th, false, "the thread") ||
        !field(when, false, "the time"))
      return false;
    std::uint32_t row = 0, cpu_id = 0;
    Time at;
    if (!thread_row(a, t, th, row) || !cpu(c, cpu_id) || !time(when, at, "the time")) return false;
    Events& e = out_.events[slot(row)];
    for (;;) {
      std::uint64_t type, value;
      if (!field(type, false, "an event type") || !number(value, "an event value")) return false;
      if (type > UINT32_MAX) return fail("event type " + std::to_string(type) + " is too large");
      e.add(at, static_cast<std::uint32_t>(type), value, cpu_id);
      if (p_ < end_ && *p_ == ':') {  // another type:value pair
        ++p_;
        continue;
      }
      return end_of_line("an event value");
    }
  }

  // 3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
  bool communication() {
    std::uint64_t sc, sa, st, sth, ls, ps, rc, ra, rt, rth, lr, pr;
    std::int64_t size, tag;
    if (!field(sc, false, "the sender's CPU") || !field(sa, false, "the sender's application") ||
        !field(st, false, "the sender's task") || !field(sth, false, "the sender's thread") ||
        !field(ls, false, "the logical send time") || !field(ps, false, "the physical send time") ||
        !field(rc, false, "the receiver's CPU") ||
        !field(ra, false, "the receiver's application") ||
        !field(rt, false, "the receiver's task") || !field(rth, false, "the receiver's thread") ||
        !field(lr, false, "the logical receive time") ||
        !field(pr, false, "the physical receive time") || !signed_field(size, false, "the size") ||
        !signed_field(tag, true, "the tag"))
      return false;
    Message m;
    if (!thread_row(sa, st, sth, m.send_row) || !thread_row(ra, rt, rth, m.recv_row) ||
        !cpu(sc, m.send_cpu) || !cpu(rc, m.recv_cpu) ||
        !time(ls, m.logical_send, "the logical send time") ||
        !time(ps, m.physical_send, "the physical send time") ||
        !time(lr, m.logical_recv, "the logical receive time") ||
        !time(pr, m.physical_recv, "the physical receive time"))
      return false;
    m.size = size;
    m.tag = tag;
    out_.messages.push_back(m);
    return true;
  }

  [[gnu::noinline, gnu::cold]] bool fail(const std::string& message) {
    if (!failed_) {
      failed_ = true;
      out_.failed_at = line_;
      out_.failure = message;
    }
    return false;
  }

  const Header& header_;
  ChunkResult& out_;
  std::size_t per_row_;  // records reserved for a row: the chunk's share, and room to spare
  const char* line_ = nullptr;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  bool failed_ = false;
};

// Default labels when the .row has none for a level (Paraver's own).
std::vector<std::string> labels_or(const RowLabels& row, const char* level, std::size_t count,
                                   const std::function<std::string(std::size_t)>& fallback) {
  auto it = row.find(level);
  if (it != row.end() && it->second.size() >= count)
    return std::vector<std::string>(it->second.begin(),
                                    it->second.begin() + static_cast<long>(count));
  std::vector<std::string> labels;
  labels.reserve(count);
  for (std::size_t i = 0; i < count; ++i) labels.push_back(fallback(i));
  return labels;
}

}  // namespace

// ---- .pcf ------------------------------------------------------------------------------------

Pcf read_pcf(const std::string& path) {
  std::vector<std::string> lines = read_lines(path);
  Pcf pcf;
  enum class Section { None, Options, States, StateColors, EventTypes, Values, Other };
  Section section = Section::None;
  std::vector<std::uint32_t> current_types;  // the EVENT_TYPE block that VALUES belong to
  for (std::size_t n = 0; n < lines.size(); ++n) {
    std::string line = trim(lines[n]);
    std::uint64_t number = n + 1;
    auto fail = [&](const std::string& message) { throw LoadError(path, number, message); };
    if (line.empty() || line[0] == '#') continue;
    bool keyword = line.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string::npos;
    if (keyword) {
      if (line == "DEFAULT_OPTIONS" || line == "DEFAULT_SEMANTIC") section = Section::Options;
      else if (line == "STATES") section = Section::States;
      else if (line == "STATES_COLOR") section = Section::StateColors;
      else if (line == "EVENT_TYPE") {
        section = Section::EventTypes;
        current_types.clear();
      } else if (line == "VALUES") {
        if (section != Section::EventTypes) fail("VALUES without an EVENT_TYPE before it");
        section = Section::Values;
      } else {
        section = Section::Other;  // GRADIENT_COLOR, GRADIENT_NAMES, and what Paraver adds
      }
      continue;
    }
    std::istringstream in(line);
    switch (section) {
      case Section::None:
        fail("expected a section name (DEFAULT_OPTIONS, STATES, EVENT_TYPE, ...)");
      case Section::Options:
      case Section::Other:
        break;
      case Section::States: {
        int state;
        if (!(in >> state) || state < 0) fail("expected 'STATE NAME' in STATES");
        if (static_cast<std::uint64_t>(state) > kMaxStateValue)
          fail("state " + std::to_string(state) + " above " + std::to_string(kMaxStateValue) +
               " (the viewer's limit)");
        std::string name;
        std::getline(in >> std::ws, name);
        pcf.state_names[state] = name;
        break;
      }
      case Section::StateColors: {
        int state, r, g, b;
        char open, comma1, comma2, close;
        if (!(in >> state >> open >> r >> comma1 >> g >> comma2 >> b >> close) || open != '{' ||
            comma1 != ',' || comma2 != ',' || close != '}' || state < 0)
          fail("expected 'STATE {R,G,B}' in STATES_COLOR");
        if (r < 0 || r > 255 || g < 0 || g > 255 || b < 0 || b > 255)
          fail("colour components must be within 0..255");
        pcf.state_colors[state] = static_cast<std::uint32_t>(r << 16 | g << 8 | b);
        break;
      }
      case Section::EventTypes: {
        long long gradient;
        unsigned long long type;
        if (!(in >> gradient >> type) || type > UINT32_MAX)
          fail("expected 'GRADIENT TYPE NAME' in EVENT_TYPE");
        std::string name;
        std::getline(in >> std::ws, name);
        pcf.event_types[static_cast<std::uint32_t>(type)].name = name;
        current_types.push_back(static_cast<std::uint32_t>(type));
        break;
      }
      case Section::Values: {
        unsigned long long value;
        if (!(in >> value)) fail("expected 'VALUE NAME' in VALUES");
        std::string name;
        std::getline(in >> std::ws, name);
        for (std::uint32_t type : current_types) pcf.event_types[type].values[value] = name;
        break;
      }
    }
  }
  return pcf;
}

// ---- .row ------------------------------------------------------------------------------------

RowLabels read_row_labels(const std::string& path) {
  std::vector<std::string> lines = read_lines(path);
  RowLabels labels;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    std::string line = trim(lines[n]);
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string level_word, level, size_word;
    long long size;
    if (!(in >> level_word >> level >> size_word >> size) || level_word != "LEVEL" ||
        size_word != "SIZE" || size < 0)
      throw LoadError(path, n + 1, "expected 'LEVEL NAME SIZE N'");
    std::vector<std::string>& list = labels[level];
    list.clear();
    std::size_t header = n;
    for (long long i = 0; i < size; ++i) {
      if (++n >= lines.size())
        throw LoadError(path, header + 1,
                        "LEVEL " + level + " announces " + std::to_string(size) +
                            " labels, the file ends after " + std::to_string(i));
      list.push_back(trim(lines[n]));
    }
  }
  return labels;
}

// ---- .prv ------------------------------------------------------------------------------------

std::unique_ptr<Timeline> load_paraver(const std::string& prv_path, const Progress& progress) {
  if (prv_path.size() > 3 && prv_path.compare(prv_path.size() - 3, 3, ".gz") == 0)
    throw LoadError(prv_path, 0, "compressed traces are not read: gunzip it first");
  auto file = std::make_unique<MappedFile>(prv_path);  // unmapped once parsed
  if (file->size() == 0) throw LoadError(prv_path, 0, "empty file, not a Paraver trace");
  const char* data = file->data();
  const char* end = data + file->size();
  const char* eol = static_cast<const char*>(std::memchr(data, '\n', file->size()));
  const char* body = eol ? eol + 1 : end;
  std::string_view first_line(data, static_cast<std::size_t>((eol ? eol : end) - data));
  if (!first_line.empty() && first_line.back() == '\r') first_line.remove_suffix(1);
  Header header = HeaderParser(prv_path, first_line).parse();

  auto timeline = std::make_unique<Timeline>();
  timeline->path = prv_path;
  timeline->end_time = header.end;
  std::string pcf_path = sibling(prv_path, ".pcf"), row_path = sibling(prv_path, ".row");
  if (::access(pcf_path.c_str(), F_OK) == 0) {
    timeline->pcf = read_pcf(pcf_path);
    // One that names no state (Dimemas 5.5 writes an empty one) leaves them Paraver's, as none.
    if (timeline->pcf.state_names.empty() && timeline->pcf.state_colors.empty()) {
      Pcf standard = Pcf::standard();
      timeline->pcf.state_names = std::move(standard.state_names);
      timeline->pcf.state_colors = std::move(standard.state_colors);
      if (timeline->pcf.event_types.empty())
        timeline->pcf.event_types = std::move(standard.event_types);
      timeline->warnings.push_back(pcf_path +
                                   ": names no states; Paraver's standard state names are used");
    }
  } else {
    timeline->pcf = Pcf::standard();
    timeline->warnings.push_back(pcf_path +
                                 ": missing; Paraver's standard state and MPI names are used");
  }
  // Tools end every line; a file that ends inside one was cut, maybe inside a number.
  if (end[-1] != '\n')
    timeline->warnings.push_back(prv_path +
                                 ": the last line has no line end: the file may have been cut, "
                                 "and its last record with it");
  RowLabels row_labels;
  if (::access(row_path.c_str(), F_OK) == 0) row_labels = read_row_labels(row_path);
  else timeline->warnings.push_back(row_path + ": missing; rows are labelled by number");

  // The body in one chunk per core, cut at line ends; chunks are in file order, so each row's
  // records stay in file order when the chunks are appended.
  std::size_t workers = std::max(1u, std::thread::hardware_concurrency());
  std::size_t body_size = static_cast<std::size_t>(end - body);
  workers = std::min<std::size_t>(workers, body_size / (1 << 20) + 1);
  std::vector<const char*> cuts{body};
  for (std::size_t w = 1; w < workers; ++w) {
    const char* cut = body + body_size * w / workers;
    cut = std::max(cut, cuts.back());
    const char* nl =
        static_cast<const char*>(std::memchr(cut, '\n', static_cast<std::size_t>(end - cut)));
    cuts.push_back(nl ? nl + 1 : end);
  }
  cuts.push_back(end);
  std::vector<ChunkResult> chunks(workers);
  std::atomic<std::size_t> parsed{0};
  std::atomic<bool> stop{false};
  auto parse_chunk = [&](std::size_t w, bool report) {
    BodyParser parser(header, chunks[w], static_cast<std::size_t>(cuts[w + 1] - cuts[w]));
    parser.parse(cuts[w], cuts[w + 1], [&](std::size_t bytes) {
      std::size_t total = parsed += bytes;
      if (report && progress &&
          !progress(0.85 * static_cast<double>(total) / static_cast<double>(body_size)))
        stop = true;
      return !stop;
    });
    if (chunks[w].failed_at) stop = true;
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(parse_chunk, w, false);
  parse_chunk(0, true);
  for (std::thread& t : threads) t.join();
  for (const ChunkResult& chunk : chunks)  // the first bad line in the file
    if (chunk.failed_at) throw LoadError(prv_path, line_of(data, chunk.failed_at), chunk.failure);
  if (stop) throw LoadCancelled();
  file.reset();

  // Each row's records, chunk after chunk (rows in parallel: this is a copy of everything, so
  // each row of the chunks is freed once copied).
  timeline->thread_states.intervals.resize(header.thread_rows);
  timeline->thread_events.resize(header.thread_rows);
  parallel_for(header.thread_rows, 0, [&](std::size_t r) {
    std::vector<const Intervals*> states;
    std::vector<const Events*> events;
    for (const ChunkResult& chunk : chunks)
      if (std::uint32_t slot = chunk.slot[r]; slot != ChunkResult::kNoSlot) {
        states.push_back(&chunk.states[slot]);
        events.push_back(&chunk.events[slot]);
      }
    if (states.empty()) return;
    timeline->thread_states.intervals[r].assign(states);
    timeline->thread_events[r].assign(events);
    for (ChunkResult& chunk : chunks)
      if (std::uint32_t slot = chunk.slot[r]; slot != ChunkResult::kNoSlot) {
        chunk.states[slot] = Intervals();
        chunk.events[slot] = Events();
      }
  });
  std::size_t message_count = 0;
  for (const ChunkResult& chunk : chunks) message_count += chunk.messages.size();
  timeline->messages.reserve(message_count);
  for (const ChunkResult& chunk : chunks)
    timeline->messages.insert(timeline->messages.end(), chunk.messages.begin(),
                              chunk.messages.end());
  if (progress && !progress(0.9)) throw LoadCancelled();

  // Rows and their labels: threads in header order, their tasks, the CPUs.
  std::vector<std::string> task_names;  // "APPL.TASK"
  for (std::size_t a = 0; a < header.first_task.size(); ++a)
    for (std::size_t t = 0; t < header.tasks_of(a); ++t)
      task_names.push_back(std::to_string(a + 1) + "." + std::to_string(t + 1));
  timeline->task_of_thread.reserve(header.thread_rows);
  for (std::size_t task = 0; task < task_names.size(); ++task)
    timeline->task_of_thread.insert(timeline->task_of_thread.end(), header.thread_count[task],
                                    static_cast<std::uint32_t>(task));
  timeline->thread_labels = labels_or(row_labels, "THREAD", header.thread_rows, [&](std::size_t i) {
    std::uint32_t task = timeline->task_of_thread[i];
    return "THREAD " + task_names[task] + "." + std::to_string(i - header.first_thread[task] + 1);
  });
  timeline->task_labels = labels_or(row_labels, "TASK", task_names.size(),
                                    [&](std::size_t i) { return "TASK " + task_names[i]; });
  std::uint32_t cpus = header.cpus;
  if (cpus == 0)  // no resources in the header: as many as the records name
    for (const Message& m : timeline->messages) cpus = std::max({cpus, m.send_cpu, m.recv_cpu});
  for (const Intervals& row : timeline->thread_states.intervals)
    for (std::size_t i = 0; header.cpus == 0 && i < row.size(); ++i)
      cpus = std::max(cpus, row.resource(i));
  for (const Events& row : timeline->thread_events)
    for (std::size_t i = 0; header.cpus == 0 && i < row.size(); ++i)
      cpus = std::max(cpus, row.resource[i]);
  timeline->cpu_labels = labels_or(row_labels, "CPU", cpus,
                                   [](std::size_t i) { return "CPU " + std::to_string(i + 1); });
  timeline->finish();
  if (progress) progress(1.0);
  return timeline;
}

}  // namespace tareador::view
