// Paraver writer: .prv records sorted with bounded memory, plus the .pcf and .row files.
//
//   #Paraver (dd/mm/yy at hh:mm):END_ns:NODES(cpus,...):1:TASKS(threads:node,...),COMMS
//   c:1:comm:size:task...
//   1:cpu:appl:task:thread:begin:end:state
//   2:cpu:appl:task:thread:time:type:value[:type:value...]
//   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <queue>
#include <thread>

#include "tareador/trace.h"

namespace tareador::trace {

// ---- Standard tables -----------------------------------------------------------------------

const std::vector<ParaverState>& paraver_states() {
  static const std::vector<ParaverState> states = {
      {0, "Idle", 117, 195, 255},
      {1, "Running", 0, 0, 255},
      {2, "Not created", 255, 255, 255},
      {3, "Waiting a message", 255, 0, 0},
      {4, "Blocking Send", 255, 0, 174},
      {5, "Synchronization", 179, 0, 0},
      {6, "Test/Probe", 0, 255, 0},
      {7, "Scheduling and Fork/Join", 200, 0, 0},
      {8, "Wait/WaitAll", 235, 0, 0},
      {9, "Blocked", 0, 162, 0},
      {10, "Immediate Send", 255, 0, 255},
      {11, "Immediate Receive", 100, 100, 177},
      {12, "I/O", 172, 174, 41},
      {13, "Group Communication", 255, 144, 26},
      {14, "Tracing Disabled", 2, 255, 177},
      {15, "Others", 192, 224, 0},
      {16, "Send Receive", 66, 66, 66},
      {17, "Memory transfer", 255, 0, 96},
      {18, "Profiling", 169, 169, 169},
      {19, "On-line analysis", 169, 0, 0},
      {20, "Remote memory access", 0, 109, 255},
      {21, "Atomic memory operation", 200, 61, 68},
      {22, "Memory ordering operation", 200, 66, 0},
      {23, "Distributed locking", 0, 41, 0},
      {24, "Overhead", 139, 121, 177},
      {25, "One Sided OP", 116, 116, 116},
      {26, "Startup Latency", 200, 50, 89},
      {27, "Waiting links", 255, 171, 98},
      {28, "Data copy", 0, 68, 189},
      {29, "Round Trip Time", 52, 43, 0},
  };
  return states;
}

namespace {

constexpr std::uint64_t kPointToPoint = 50000001, kCollective = 50000002, kOther = 50000003;

struct MpiCall {
  const char* name;
  std::uint64_t type, value;
};

// Extrae's numbering (EventEncoding.h).
constexpr MpiCall kMpiCalls[] = {
    {"MPI_Send", kPointToPoint, 1},
    {"MPI_Recv", kPointToPoint, 2},
    {"MPI_Isend", kPointToPoint, 3},
    {"MPI_Irecv", kPointToPoint, 4},
    {"MPI_Wait", kPointToPoint, 5},
    {"MPI_Waitall", kPointToPoint, 6},
    {"MPI_Bcast", kCollective, 7},
    {"MPI_Barrier", kCollective, 8},
    {"MPI_Reduce", kCollective, 9},
    {"MPI_Allreduce", kCollective, 10},
    {"MPI_Alltoall", kCollective, 11},
    {"MPI_Alltoallv", kCollective, 12},
    {"MPI_Gather", kCollective, 13},
    {"MPI_Gatherv", kCollective, 14},
    {"MPI_Scatter", kCollective, 15},
    {"MPI_Scatterv", kCollective, 16},
    {"MPI_Allgather", kCollective, 17},
    {"MPI_Allgatherv", kCollective, 18},
    {"MPI_Comm_rank", kOther, 19},
    {"MPI_Comm_size", kOther, 20},
    {"MPI_Comm_create", kOther, 21},
    {"MPI_Comm_dup", kOther, 22},
    {"MPI_Comm_split", kOther, 23},
    {"MPI_Comm_group", kOther, 24},
    {"MPI_Comm_free", kOther, 25},
    {"MPI_Comm_remote_group", kOther, 26},
    {"MPI_Comm_remote_size", kOther, 27},
    {"MPI_Comm_test_inter", kOther, 28},
    {"MPI_Comm_compare", kOther, 29},
    {"MPI_Scan", kCollective, 30},
    {"MPI_Init", kOther, 31},
    {"MPI_Finalize", kOther, 32},
    {"MPI_Bsend", kPointToPoint, 33},
    {"MPI_Ssend", kPointToPoint, 34},
    {"MPI_Rsend", kPointToPoint, 35},
    {"MPI_Ibsend", kPointToPoint, 36},
    {"MPI_Issend", kPointToPoint, 37},
    {"MPI_Irsend", kPointToPoint, 38},
    {"MPI_Test", kPointToPoint, 39},
    {"MPI_Cancel", kPointToPoint, 40},
    {"MPI_Sendrecv", kPointToPoint, 41},
    {"MPI_Sendrecv_replace", kPointToPoint, 42},
    {"MPI_Waitany", kPointToPoint, 59},
    {"MPI_Waitsome", kPointToPoint, 60},
    {"MPI_Probe", kPointToPoint, 61},
    {"MPI_Iprobe", kPointToPoint, 62},
    {"MPI_Reduce_scatter", kCollective, 80},
    {"MPI_Reduce_scatter_block", kCollective, 168},
    {"MPI_Alltoallw", kCollective, 170},
    {"MPI_Init_thread", kOther, 194},
};

}  // namespace

std::vector<ParaverEventType> paraver_mpi_event_types() {
  std::vector<ParaverEventType> types = {{kPointToPoint, "MPI Point-to-point", {}},
                                         {kCollective, "MPI Collective Comm", {}},
                                         {kOther, "MPI Other", {}}};
  for (ParaverEventType& type : types) {
    type.values.emplace_back(0, "End");
    for (const MpiCall& call : kMpiCalls)
      if (call.type == type.type) type.values.emplace_back(call.value, call.name);
  }
  return types;
}

std::pair<std::uint64_t, std::uint64_t> paraver_mpi_event(std::string_view call) {
  for (const MpiCall& c : kMpiCalls)
    if (call == c.name) return {c.type, c.value};
  return {0, 0};
}

// ---- Records and their order ---------------------------------------------------------------

namespace {

enum Kind : std::uint8_t { kEvent = 0, kRunningState = 1, kState = 2, kComm = 3 };

// Records sort by time, then task, thread and kind (events, running, other states,
// communications: the order Dimemas writes), then arrival. All of it is one 128-bit key: time
// in the high word; task, thread and kind in the low word, above kArrivalBits bits that the
// sort fills with the record's index among the pending ones (which is its arrival order).
using Key = unsigned __int128;
constexpr int kArrivalBits = 30, kKindShift = 30, kThreadShift = 32, kTaskShift = 44;
constexpr Key kArrivalMask = (Key{1} << kArrivalBits) - 1;
constexpr int kMaxRowTasks = 1 << 20, kMaxRowThreads = 1 << 12;  // what the keys hold

struct Entry {
  Key key;                 // without the arrival bits
  std::uint64_t a, b, c;   // state: end, value; event: type, value; comm: psend, lrecv, precv
  std::int64_t size, tag;  // comm
  std::int32_t cpu, task, thread;
  std::int32_t recv_cpu, recv_task, recv_thread;  // comm

  std::uint64_t time() const { return static_cast<std::uint64_t>(key >> 64); }
  Kind kind() const {
    return static_cast<Kind>((static_cast<std::uint64_t>(key) >> kKindShift) & 3);
  }
};

Key make_key(std::uint64_t time, int task, int thread, Kind kind) {
  return (static_cast<Key>(time) << 64) | (static_cast<std::uint64_t>(task) << kTaskShift) |
         (static_cast<std::uint64_t>(thread) << kThreadShift) |
         (static_cast<std::uint64_t>(kind) << kKindShift);
}

constexpr std::size_t kPendingEntries = 1 << 18;  // ~20 MB of records waiting to be final
constexpr std::size_t kMergeBuffer = 1 << 11;     // entries read at once from each spilled run

// Writes v in decimal at p; returns the end. Hand-made: the Paraver writer's hot path.
char* format_decimal(char* p, std::uint64_t v) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  if (v < 10) {  // most fields of a record line: rows, CPUs, states
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  static constexpr std::uint64_t kPowers[20] = {1ull,
                                                10ull,
                                                100ull,
                                                1000ull,
                                                10000ull,
                                                100000ull,
                                                1000000ull,
                                                10000000ull,
                                                100000000ull,
                                                1000000000ull,
                                                10000000000ull,
                                                100000000000ull,
                                                1000000000000ull,
                                                10000000000000ull,
                                                100000000000000ull,
                                                1000000000000000ull,
                                                10000000000000000ull,
                                                100000000000000000ull,
                                                1000000000000000000ull,
                                                10000000000000000000ull};
  // Digits from the bit length: log10(2) ~ 1233 / 4096, corrected by one comparison.
  int guess = ((64 - __builtin_clzll(v)) * 1233) >> 12;
  char* end = p + guess + (v >= kPowers[guess]);
  p = end;  // written backwards, four digits at a time
  auto hundreds = [](std::uint32_t r) { return (r * 5243) >> 19; };  // r / 100 for r < 43,699
  while (v >= 10000) {
    std::uint64_t q = v / 10000;
    auto r = static_cast<std::uint32_t>(v - q * 10000);
    std::uint32_t high = hundreds(r);
    p -= 4;
    std::memcpy(p, kPairs + 2 * high, 2);
    std::memcpy(p + 2, kPairs + 2 * (r - high * 100), 2);
    v = q;
  }
  auto r = static_cast<std::uint32_t>(v);
  if (r >= 100) {
    std::uint32_t high = hundreds(r);
    p -= 2;
    std::memcpy(p, kPairs + 2 * (r - high * 100), 2);
    r = high;
  }
  if (r >= 10) {
    std::memcpy(p - 2, kPairs + 2 * r, 2);
  } else {
    p[-1] = static_cast<char>('0' + r);
  }
  return end;
}

// Buffered output. The buffer has slack past its flush mark: single characters go in
// unchecked, numbers and text check after.
class TextOut {
 public:
  explicit TextOut(const std::string& path)
      : path_(path), file_(std::fopen(path.c_str(), "wb")), buffer_(new char[kSize + kSlack]) {
    if (!file_) throw FormatError(path, 0, "cannot create file");
    at_ = buffer_.get();
  }
  ~TextOut() {
    if (file_) std::fclose(file_);
  }
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  void put(std::string_view text) {
    while (text.size() > kSlack) {  // long text: in pieces
      put(text.substr(0, kSlack));
      text.remove_prefix(kSlack);
    }
    std::memcpy(at_, text.data(), text.size());
    at_ += text.size();
    flush_if_full();
  }
  void put(char c) { *at_++ = c; }
  // Unchecked, as put(char): a piece of a line of at most kCopy bytes, from a buffer of at
  // least kCopy bytes; copying a fixed size spares a variable-length copy's start-up cost.
  template <std::size_t kCopy>
  void put_short(std::string_view text) {
    std::memcpy(at_, text.data(), kCopy);
    at_ += text.size();
  }
  void number(std::uint64_t v) {
    at_ = format_decimal(at_, v);
    flush_if_full();  // lists of numbers (headers, lines of many events) grow field by field
  }
  void signed_number(std::int64_t v) {
    if (v < 0) {
      put('-');
      number(static_cast<std::uint64_t>(-(v + 1)) + 1);
    } else {
      number(static_cast<std::uint64_t>(v));
    }
  }
  void field(std::uint64_t v) {
    put(':');
    number(v);
  }
  void end_line() {
    put('\n');
    flush_if_full();
  }
  void close() {
    flush();
    bool failed = std::ferror(file_) != 0;
    failed |= std::fclose(file_) != 0;
    file_ = nullptr;
    if (failed) throw FormatError(path_, 0, "write error");
  }

 private:
  static constexpr std::size_t kSize = 1 << 20, kSlack = 4096;
  void flush_if_full() {
    if (at_ >= buffer_.get() + kSize) flush();
  }
  void flush() {
    std::size_t n = static_cast<std::size_t>(at_ - buffer_.get());
    if (n && std::fwrite(buffer_.get(), 1, n, file_) != n)
      throw FormatError(path_, 0, "write error");
    at_ = buffer_.get();
  }
  std::string path_;
  std::FILE* file_;
  std::unique_ptr<char[]> buffer_;
  char* at_;
};

// A sorted run spilled to an anonymous temporary file.
class Run {
 public:
  explicit Run(const std::vector<Entry>& sorted) : file_(std::tmpfile()) {
    if (!file_) throw std::runtime_error("cannot create a temporary file for sorting records");
    if (std::fwrite(sorted.data(), sizeof(Entry), sorted.size(), file_) != sorted.size())
      throw std::runtime_error("cannot write a temporary file for sorting records (disk full?)");
    std::rewind(file_);
  }
  ~Run() { std::fclose(file_); }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // The next entry, or nullptr at the end.
  const Entry* peek() {
    if (pos_ == buffer_.size()) {
      buffer_.resize(kMergeBuffer);
      buffer_.resize(std::fread(buffer_.data(), sizeof(Entry), kMergeBuffer, file_));
      pos_ = 0;
      if (buffer_.empty()) return nullptr;
    }
    return &buffer_[pos_];
  }
  void pop() { ++pos_; }

 private:
  std::FILE* file_;
  std::vector<Entry> buffer_;
  std::size_t pos_ = 0;
};

// Appends the contents of `from` to `to`, letting the kernel copy the bytes.
void append_file(const std::string& from, const std::string& to) {
  int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) throw FormatError(from, 0, std::string("cannot read: ") + std::strerror(errno));
  int out = ::open(to.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (out < 0) {
    ::close(in);
    throw FormatError(to, 0, std::string("cannot append: ") + std::strerror(errno));
  }
  char buffer[1 << 16];
  bool failed = false;
  for (;;) {
    ssize_t n = ::copy_file_range(in, nullptr, out, nullptr, 1 << 30, 0);
    if (n > 0) continue;
    if (n == 0) break;
    // Not supported here (other file systems): copy through a buffer instead.
    for (;;) {
      ssize_t got = ::read(in, buffer, sizeof buffer);
      if (got == 0) break;
      if (got < 0 || ::write(out, buffer, static_cast<std::size_t>(got)) != got) {
        failed = true;
        break;
      }
    }
    break;
  }
  failed |= ::close(out) != 0;
  ::close(in);
  if (failed) throw FormatError(to, 0, std::string("write error: ") + std::strerror(errno));
}

std::string replace_extension(const std::string& path, const char* extension) {
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".prv") == 0)
    base.resize(base.size() - 4);
  return base + extension;
}

// The ":cpu:1:task:thread" text of a record's row, formatted once per row and kept in a small
// direct-mapped table: it is most of a record line, and few rows are active at any time.
class RowText {
 public:
  static constexpr std::size_t kMaxSize = 40;  // 3 numbers of at most 10 digits, and the colons

  std::string_view get(std::int32_t cpu, std::int32_t task, std::int32_t thread) {
    std::uint32_t hash = static_cast<std::uint32_t>(task) * 2654435761u ^
                         static_cast<std::uint32_t>(thread) * 40503u ^
                         static_cast<std::uint32_t>(cpu);
    Slot& slot = slots_[hash & (kSlots - 1)];
    if (slot.size == 0 || slot.cpu != cpu || slot.task != task || slot.thread != thread) {
      char* p = slot.text;
      *p++ = ':';
      p = format_decimal(p, static_cast<std::uint64_t>(cpu) + 1);
      *p++ = ':';
      *p++ = '1';
      *p++ = ':';
      p = format_decimal(p, static_cast<std::uint64_t>(task) + 1);
      *p++ = ':';
      p = format_decimal(p, static_cast<std::uint64_t>(thread) + 1);
      slot.size = static_cast<std::uint8_t>(p - slot.text);
      slot.cpu = cpu;
      slot.task = task;
      slot.thread = thread;
    }
    return {slot.text, slot.size};
  }

 private:
  static constexpr std::size_t kSlots = 1024;
  struct Slot {
    std::int32_t cpu = 0, task = 0, thread = 0;
    std::uint8_t size = 0;  // 0: empty
    char text[kMaxSize];
  };
  std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
};

// Sorts keys (in arrival order, the index in their low kArrivalBits) by their bits above the
// arrival index, stably: a least-significant-digit radix sort that skips the digits no two
// keys differ in. A batch's keys differ in a few bits of the time, task and kind only, so a
// batch takes two or three passes where a comparison sort takes fifteen.
void sort_keys(std::vector<Key>& keys, std::vector<Key>& scratch) {
  if (keys.empty()) return;
  Key differ = 0;
  for (Key k : keys) differ |= k ^ keys[0];
  constexpr int kDigitBits = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  scratch.resize(keys.size());
  std::vector<std::size_t> start(kBuckets);
  for (int shift = kArrivalBits; shift < 128; shift += kDigitBits) {
    if (((differ >> shift) & (kBuckets - 1)) == 0) continue;
    auto digit = [&](Key k) { return static_cast<std::size_t>(k >> shift) & (kBuckets - 1); };
    std::fill(start.begin(), start.end(), 0);
    for (Key k : keys) ++start[digit(k)];
    std::size_t sum = 0;
    for (std::size_t& s : start) sum += std::exchange(s, sum);
    for (Key k : keys) scratch[start[digit(k)]++] = k;
    keys.swap(scratch);
  }
}

// A batch of records as the producer handed it over, with its order: it waits in place (its
// records are sorted once and never copied while they wait) until it is written.
struct SortedBatch {
  std::vector<Entry> entries;  // in arrival order
  std::vector<Key> order;      // keys with the index in `entries`, sorted
  std::size_t next = 0;        // into order

  SortedBatch(std::vector<Entry>&& batch, std::vector<Key>& scratch) : entries(std::move(batch)) {
    order.resize(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) order[i] = entries[i].key | i;
    sort_keys(order, scratch);
  }
  bool done() const { return next == order.size(); }
  Key head_key() const { return order[next] & ~kArrivalMask; }
  const Entry& head() const {
    return entries[static_cast<std::size_t>(order[next] & kArrivalMask)];
  }
};

// Records become final in time order when the producer promises that nothing earlier will
// come; they are then written to a body file. The header, which needs the end time, is written
// last, in front of the body. When the promise lags (a thread blocked for long) and too many
// records wait, they are merged into a sorted run on disk, and the runs are merged at the end.
class SortedBody {
 public:
  std::string body_path;
  TextOut body;
  std::vector<SortedBatch> waiting;  // in arrival order
  std::size_t waiting_entries = 0;
  std::vector<std::vector<Entry>> emptied;  // batches written, for the producer to reuse
  std::vector<Key> sort_scratch;
  std::vector<std::unique_ptr<Run>> runs;
  RowText rows;
  bool event_line_open = false;  // events at one time and thread share a line
  Entry last_event{};

  explicit SortedBody(const std::string& path) : body_path(path), body(path) {}

  // Takes a batch (in arrival order) and writes every record earlier than `bound`.
  void take(std::vector<Entry>&& entries, std::uint64_t bound) {
    waiting_entries += entries.size();
    waiting.emplace_back(std::move(entries), sort_scratch);
    if (runs.empty())  // (else all is merged at the end: the runs hold later records)
      drain([&](const Entry& e) { return e.time() < bound; }, [&](const Entry& e) { write(e); });
    if (waiting_entries >= kPendingEntries) spill();
  }

  // Hands the waiting records to `sink` in order while `ready` says so. On equal keys the
  // earlier batch goes first: its records came first.
  template <class Ready, class Sink>
  void drain(Ready&& ready, Sink&& sink) {
    for (;;) {
      SortedBatch* first = nullptr;
      for (SortedBatch& batch : waiting)
        if (!batch.done() && (!first || batch.head_key() < first->head_key())) first = &batch;
      if (!first || !ready(first->head())) break;
      sink(first->head());
      ++first->next;
      --waiting_entries;
    }
    auto written = std::stable_partition(waiting.begin(), waiting.end(),
                                         [](const SortedBatch& batch) { return !batch.done(); });
    for (auto it = written; it != waiting.end(); ++it) emptied.push_back(std::move(it->entries));
    waiting.erase(written, waiting.end());
  }

  void spill() {
    std::vector<Entry> sorted;
    sorted.reserve(waiting_entries);
    drain([](const Entry&) { return true; }, [&](const Entry& e) { sorted.push_back(e); });
    runs.push_back(std::make_unique<Run>(sorted));
  }

  void resource(const Entry& e, bool receiver) {
    body.put_short<RowText::kMaxSize>(receiver ? rows.get(e.recv_cpu, e.recv_task, e.recv_thread)
                                               : rows.get(e.cpu, e.task, e.thread));
  }

  void write(const Entry& e) {
    Kind kind = e.kind();
    if (kind == kEvent && event_line_open && e.time() == last_event.time() &&
        e.task == last_event.task && e.thread == last_event.thread && e.cpu == last_event.cpu) {
      body.field(e.a);
      body.field(e.b);
      return;
    }
    if (event_line_open) {
      body.end_line();
      event_line_open = false;
    }
    switch (kind) {
      case kEvent:
        body.put('2');
        resource(e, false);
        body.field(e.time());
        body.field(e.a);
        body.field(e.b);
        last_event = e;
        event_line_open = true;
        return;
      case kRunningState:
      case kState:
        body.put('1');
        resource(e, false);
        body.field(e.time());
        body.field(e.a);
        body.field(e.b);
        break;
      case kComm:
        body.put('3');
        resource(e, false);
        body.field(e.time());
        body.field(e.a);
        resource(e, true);
        body.field(e.b);
        body.field(e.c);
        body.put(':');
        body.signed_number(e.size);
        body.put(':');
        body.signed_number(e.tag);
        break;
    }
    body.end_line();
  }

  void write_rest() {
    if (runs.empty()) {
      drain([](const Entry&) { return true; }, [&](const Entry& e) { write(e); });
    } else {
      if (waiting_entries) spill();
      auto later = [&](std::size_t x, std::size_t y) {
        return runs[y]->peek()->key < runs[x]->peek()->key ||
               (runs[y]->peek()->key == runs[x]->peek()->key && y < x);
      };
      std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heads(later);
      for (std::size_t i = 0; i < runs.size(); ++i)
        if (runs[i]->peek()) heads.push(i);
      while (!heads.empty()) {
        std::size_t i = heads.top();
        heads.pop();
        write(*runs[i]->peek());
        runs[i]->pop();
        if (runs[i]->peek()) heads.push(i);
      }
    }
    if (event_line_open) body.end_line();
    waiting.clear();
    emptied.clear();
    runs.clear();
    body.close();
  }
};

}  // namespace

// The producer (the replay) hands records over in batches; a writer thread sorts and formats
// them, so that a replay with Paraver output uses the second core.
struct ParaverWriter::Impl {
  static constexpr std::size_t kBatch = 1 << 15, kMaxJobs = 2;
  struct Job {
    std::vector<Entry> entries;
    std::uint64_t bound;
  };

  std::string path;
  ParaverLayout layout;
  SortedBody sorted;  // the writer thread's, until it is joined
  std::vector<Entry> batch;
  std::uint64_t bound = 0;  // the latest promise
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Job> jobs;
  std::vector<std::vector<Entry>> spare;  // emptied batches, for reuse
  bool closing = false;
  std::exception_ptr error;
  std::thread writer;

  Impl(const std::string& prv_path, ParaverLayout l)
      : path(prv_path), layout(std::move(l)), sorted(prv_path + ".body") {
    if (layout.task_node.size() > static_cast<std::size_t>(kMaxRowTasks))
      throw std::length_error("Paraver writer: more than 2^20 tasks");
    for (int threads : layout.threads)
      if (threads > kMaxRowThreads)
        throw std::length_error("Paraver writer: more than 2^12 threads");
    batch.reserve(kBatch);
    writer = std::thread([this] { run(); });
  }

  ~Impl() { join(); }

  void add(const Entry& e) {
    batch.push_back(e);
    if (batch.size() == kBatch) submit();
  }

  void promise(std::uint64_t time) {
    bound = time;
    if (batch.size() >= kBatch / 4) submit();  // small batches are not worth a hand-over
  }

  void submit() {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return jobs.size() < kMaxJobs || error; });
    if (error) std::rethrow_exception(error);
    jobs.push_back(Job{std::move(batch), bound});
    if (spare.empty()) {
      batch = {};
      batch.reserve(kBatch);
    } else {
      batch = std::move(spare.back());
      spare.pop_back();
    }
    changed.notify_all();
  }

  void run() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return !jobs.empty() || closing; });
        if (jobs.empty()) return;
        job = std::move(jobs.front());
        jobs.pop_front();
        changed.notify_all();
      }
      try {
        sorted.take(std::move(job.entries), job.bound);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        error = std::current_exception();
        changed.notify_all();
        return;
      }
      std::lock_guard<std::mutex> lock(mutex);
      for (std::vector<Entry>& entries : sorted.emptied) {
        entries.clear();
        spare.push_back(std::move(entries));
      }
      sorted.emptied.clear();
    }
  }

  // Hands over the last batch and waits for the writer thread to be done with everything.
  void join() {
    if (!writer.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex);
      closing = true;
    }
    changed.notify_all();
    writer.join();
  }

  void finish(std::uint64_t end_time) {
    submit();
    join();
    if (error) std::rethrow_exception(error);
    sorted.write_rest();
    write_prv(end_time);
    write_pcf();
    write_row();
  }

  void write_prv(std::uint64_t end_time);
  void write_pcf() const;
  void write_row() const;
};

ParaverWriter::ParaverWriter(const std::string& prv_path, ParaverLayout layout)
    : impl_(std::make_unique<Impl>(prv_path, std::move(layout))) {}

ParaverWriter::~ParaverWriter() {
  impl_->join();
  std::remove(impl_->sorted.body_path.c_str());
}

void ParaverWriter::state(int cpu, int task, int thread, std::uint64_t begin, std::uint64_t end,
                          int value) {
  if (end <= begin) return;  // Paraver drops empty states
  Entry e{};
  e.key = make_key(begin, task, thread, value == 1 ? kRunningState : kState);
  e.a = end;
  e.b = static_cast<std::uint64_t>(value);
  e.cpu = cpu;
  e.task = task;
  e.thread = thread;
  impl_->add(e);
}

void ParaverWriter::event(int cpu, int task, int thread, std::uint64_t time, std::uint64_t type,
                          std::uint64_t value) {
  Entry e{};
  e.key = make_key(time, task, thread, kEvent);
  e.a = type;
  e.b = value;
  e.cpu = cpu;
  e.task = task;
  e.thread = thread;
  impl_->add(e);
}

void ParaverWriter::communication(const ParaverCommunication& c) {
  Entry e{};
  e.key = make_key(c.logical_send, c.send_task, c.send_thread, kComm);
  e.a = c.physical_send;
  e.b = c.logical_recv;
  e.c = c.physical_recv;
  e.size = c.size;
  e.tag = c.tag;
  e.cpu = c.send_cpu;
  e.task = c.send_task;
  e.thread = c.send_thread;
  e.recv_cpu = c.recv_cpu;
  e.recv_task = c.recv_task;
  e.recv_thread = c.recv_thread;
  impl_->add(e);
}

void ParaverWriter::flush_before(std::uint64_t time) { impl_->promise(time); }

void ParaverWriter::shrink_threads(int task, int threads) {
  // The layout is read only by finish() (the writer thread formats records without it).
  int& current = impl_->layout.threads.at(static_cast<std::size_t>(task));
  current = std::max(1, std::min(current, threads));
  if (static_cast<std::size_t>(task) < impl_->layout.thread_names.size())
    impl_->layout.thread_names[static_cast<std::size_t>(task)].resize(
        static_cast<std::size_t>(current));
}

void ParaverWriter::finish(std::uint64_t end_time) { impl_->finish(end_time); }

// The header, then the body appended by the kernel (no copy through this process).
void ParaverWriter::Impl::write_prv(std::uint64_t end_time) {
  {
    TextOut out(path);
    // The date is fixed so that the same replay gives the same bytes.
    out.put("#Paraver (01/01/70 at 00:00):");
    out.number(end_time);
    out.put("_ns:");
    out.number(layout.cpus_per_node.size());
    out.put('(');
    for (std::size_t n = 0; n < layout.cpus_per_node.size(); ++n) {
      if (n) out.put(',');
      out.number(static_cast<std::uint64_t>(layout.cpus_per_node[n]));
    }
    out.put("):1:");
    out.number(layout.task_node.size());
    out.put('(');
    for (std::size_t t = 0; t < layout.task_node.size(); ++t) {
      if (t) out.put(',');
      out.number(static_cast<std::uint64_t>(layout.threads[t]));
      out.put(':');
      out.number(static_cast<std::uint64_t>(layout.task_node[t] + 1));
    }
    out.put("),");
    out.number(layout.communicators.size());
    out.end_line();
    for (const Communicator& c : layout.communicators) {
      out.put("c:1");
      out.field(static_cast<std::uint64_t>(c.id));
      out.field(c.tasks.size());
      for (int task : c.tasks) out.field(static_cast<std::uint64_t>(task + 1));
      out.end_line();
    }
    out.close();
  }
  append_file(sorted.body_path, path);
  std::remove(sorted.body_path.c_str());
}

void ParaverWriter::Impl::write_pcf() const {
  TextOut out(replace_extension(path, ".pcf"));
  out.put(
      "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
      "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
      "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\n"
      "DEFAULT_SEMANTIC\n\nTHREAD_FUNC         State As Is\n\n\nSTATES\n");
  for (const ParaverState& s : layout.states) {
    out.number(static_cast<std::uint64_t>(s.value));
    out.put('\t');
    out.put(s.name);
    out.end_line();
  }
  out.put("\n\nSTATES_COLOR\n");
  for (const ParaverState& s : layout.states) {
    out.number(static_cast<std::uint64_t>(s.value));
    out.put("\t{");
    out.number(static_cast<std::uint64_t>(s.red));
    out.put(',');
    out.number(static_cast<std::uint64_t>(s.green));
    out.put(',');
    out.number(static_cast<std::uint64_t>(s.blue));
    out.put('}');
    out.end_line();
  }
  for (const ParaverEventType& type : layout.event_types) {
    out.put("\n\nEVENT_TYPE\n0    ");
    out.number(type.type);
    out.put("    ");
    out.put(type.name);
    out.end_line();
    if (type.values.empty()) continue;
    out.put("VALUES\n");
    for (const auto& [value, name] : type.values) {
      out.number(value);
      out.put("      ");
      out.put(name);
      out.end_line();
    }
  }
  out.put("\n\nGRADIENT_COLOR\n");
  static const int gradient[15][3] = {{0, 255, 2},   {0, 244, 13},  {0, 232, 25},  {0, 220, 37},
                                      {0, 209, 48},  {0, 197, 60},  {0, 185, 72},  {0, 173, 84},
                                      {0, 162, 95},  {0, 150, 107}, {0, 138, 119}, {0, 127, 130},
                                      {0, 115, 142}, {0, 103, 154}, {0, 91, 166}};
  for (int i = 0; i < 15; ++i) {
    out.number(static_cast<std::uint64_t>(i));
    out.put("    {");
    out.number(static_cast<std::uint64_t>(gradient[i][0]));
    out.put(',');
    out.number(static_cast<std::uint64_t>(gradient[i][1]));
    out.put(',');
    out.number(static_cast<std::uint64_t>(gradient[i][2]));
    out.put('}');
    out.end_line();
  }
  out.put("\n\nGRADIENT_NAMES\n");
  for (int i = 0; i < 15; ++i) {
    out.number(static_cast<std::uint64_t>(i));
    out.put("    Gradient ");
    out.number(static_cast<std::uint64_t>(i));
    out.end_line();
  }
  out.close();
}

void ParaverWriter::Impl::write_row() const {
  TextOut out(replace_extension(path, ".row"));
  auto node_name = [&](std::size_t n) {
    return n < layout.node_names.size() ? layout.node_names[n] : "node " + std::to_string(n + 1);
  };
  std::uint64_t cpus = 0;
  for (int c : layout.cpus_per_node) cpus += static_cast<std::uint64_t>(c);
  out.put("LEVEL CPU SIZE ");
  out.number(cpus);
  out.end_line();
  for (std::size_t n = 0; n < layout.cpus_per_node.size(); ++n)
    for (int c = 0; c < layout.cpus_per_node[n]; ++c) {
      out.put(node_name(n));
      out.put(".cpu ");
      out.number(static_cast<std::uint64_t>(c + 1));
      out.end_line();
    }
  out.put("\nLEVEL NODE SIZE ");
  out.number(layout.cpus_per_node.size());
  out.end_line();
  for (std::size_t n = 0; n < layout.cpus_per_node.size(); ++n) {
    out.put(node_name(n));
    out.end_line();
  }
  out.put("\nLEVEL APPL SIZE 1\n");
  out.put(layout.application);
  out.end_line();
  out.put("\nLEVEL TASK SIZE ");
  out.number(layout.task_node.size());
  out.end_line();
  for (std::size_t t = 0; t < layout.task_node.size(); ++t) {
    out.put("rank ");
    out.number(t);
    out.end_line();
  }
  std::uint64_t threads = 0;
  for (int t : layout.threads) threads += static_cast<std::uint64_t>(t);
  out.put("\nLEVEL THREAD SIZE ");
  out.number(threads);
  out.end_line();
  for (std::size_t t = 0; t < layout.threads.size(); ++t)
    for (int th = 0; th < layout.threads[t]; ++th) {
      if (t < layout.thread_names.size() &&
          static_cast<std::size_t>(th) < layout.thread_names[t].size()) {
        out.put(layout.thread_names[t][static_cast<std::size_t>(th)]);
        out.end_line();
        continue;
      }
      out.put("rank ");
      out.number(t);
      if (layout.threads[t] > 1) {
        out.put('.');
        out.number(static_cast<std::uint64_t>(th));
      }
      out.end_line();
    }
  out.close();
}

}  // namespace tareador::trace
