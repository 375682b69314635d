// Sorting a Paraver trace's records with bounded memory: batches sorted once, merged as the
// producer's promises allow, spilled to sorted runs on disk when the promise lags.
#include "paraver_sort.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <queue>
#include <stdexcept>
#include <utility>

#include "text_out.h"

namespace tareador::trace::paraver {

namespace {

// A record whole, as a spilled run holds it.
struct FullRecord {
  Entry entry;
  CommFields comm;
};

// A sorted run spilled to an anonymous temporary file.
class Run {
 public:
  explicit Run(const std::vector<FullRecord>& sorted) : file_(std::tmpfile()) {
    if (!file_) throw std::runtime_error("cannot create a temporary file for sorting records");
    if (std::fwrite(sorted.data(), sizeof(FullRecord), sorted.size(), file_) != sorted.size())
      throw std::runtime_error("cannot write a temporary file for sorting records (disk full?)");
    std::rewind(file_);
  }
  ~Run() { std::fclose(file_); }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // The next entry, or nullptr at the end.
  const FullRecord* peek() {
    if (pos_ == buffer_.size()) {
      buffer_.resize(kMergeBuffer);
      buffer_.resize(std::fread(buffer_.data(), sizeof(FullRecord), kMergeBuffer, file_));
      pos_ = 0;
      if (buffer_.empty()) return nullptr;
    }
    return &buffer_[pos_];
  }
  void pop() { ++pos_; }

 private:
  std::FILE* file_;
  std::vector<FullRecord> buffer_;
  std::size_t pos_ = 0;
};

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

// Sorts keys stably by their bits from `low` up: a least-significant-digit radix sort that
// skips the digits no two keys differ in.
template <class K>
void radix_sort(std::vector<K>& keys, std::vector<K>& scratch, int low) {
  if (keys.empty()) return;
  K differ = 0;
  for (K k : keys) differ |= k ^ keys[0];
  constexpr int kDigitBits = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
  scratch.resize(keys.size());
  std::size_t start[kBuckets];
  for (int shift = low; shift < static_cast<int>(8 * sizeof(K)); shift += kDigitBits) {
    if (((differ >> shift) & (kBuckets - 1)) == 0) continue;
    auto digit = [&](K k) { return static_cast<std::size_t>(k >> shift) & (kBuckets - 1); };
    std::fill(std::begin(start), std::end(start), 0);
    for (K k : keys) ++start[digit(k)];
    std::size_t sum = 0;
    for (std::size_t& s : start) sum += std::exchange(s, sum);
    for (K k : keys) scratch[start[digit(k)]++] = k;
    keys.swap(scratch);
  }
}

int bit_width(std::uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

struct SortScratch {
  std::vector<std::uint64_t> packed, packed_scratch;
  std::vector<Key> keys, keys_scratch;
};

// The indices of `entries` in the order of their keys, then of arrival. Usually a batch's keys
// fit in 64 bits once packed (time since the batch's earliest, then task, thread and kind, then
// the index), and a radix sort takes three passes over them; else the 128-bit keys are sorted.
void sort_batch(const std::vector<Entry>& entries, SortScratch& s,
                std::vector<std::uint32_t>& order) {
  std::size_t n = entries.size();
  order.resize(n);
  if (n == 0) return;
  // Task, thread and kind: the key's low word above the arrival bits, in their order.
  auto row_kind = [](Key k) { return static_cast<std::uint64_t>(k) >> kArrivalBits; };
  std::uint64_t earliest = entries[0].time(), latest = earliest, rows = 0;
  for (const Entry& e : entries) {
    earliest = std::min(earliest, e.time());
    latest = std::max(latest, e.time());
    rows |= row_kind(e.key);
  }
  int index_bits = bit_width(n - 1), row_bits = bit_width(rows);
  if (bit_width(latest - earliest) + row_bits + index_bits <= 64) {
    s.packed.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      s.packed[i] =
          (((entries[i].time() - earliest) << row_bits | row_kind(entries[i].key)) << index_bits) |
          i;
    radix_sort(s.packed, s.packed_scratch, index_bits);
    std::uint64_t mask = (std::uint64_t{1} << index_bits) - 1;
    for (std::size_t j = 0; j < n; ++j) order[j] = static_cast<std::uint32_t>(s.packed[j] & mask);
    return;
  }
  s.keys.resize(n);
  for (std::size_t i = 0; i < n; ++i) s.keys[i] = entries[i].key | i;
  radix_sort(s.keys, s.keys_scratch, kArrivalBits);
  for (std::size_t j = 0; j < n; ++j)
    order[j] = static_cast<std::uint32_t>(s.keys[j] & kArrivalMask);
}

// A batch of records as the producer handed it over, with its order: it waits in place (its
// records are sorted once and never copied while they wait) until it is written.
struct SortedBatch {
  Batch records;                     // in arrival order
  std::vector<std::uint32_t> order;  // indices into records.entries, sorted
  std::size_t next = 0;              // into order

  SortedBatch(Batch&& batch, SortScratch& scratch) : records(std::move(batch)) {
    sort_batch(records.entries, scratch, order);
  }
  bool done() const { return next == order.size(); }
  Key head_key() const { return head().key; }
  const Entry& head() const { return records.entries[order[next]]; }
  // The head's communication fields (of any other record: none that matter).
  const CommFields& head_comm() const {
    static const CommFields kNone;
    const Entry& e = head();
    return e.kind() == kComm ? records.comms[e.comm] : kNone;
  }
};

}  // namespace

struct SortedBody::State {
  TextOut body;
  std::vector<SortedBatch> waiting;  // in arrival order
  std::size_t waiting_entries = 0;
  std::vector<Batch> emptied;  // batches written, for the producer to reuse
  SortScratch sort_scratch;
  std::vector<std::unique_ptr<Run>> runs;
  RowText rows;
  bool event_line_open = false;  // events at one time and thread share a line
  Entry last_event{};

  State(const std::string& path, const std::string& prefix) : body(path) { body.put(prefix); }

  // Takes a batch (in arrival order) and writes every record earlier than `bound`.
  void take(Batch&& batch, std::uint64_t bound) {
    waiting_entries += batch.entries.size();
    waiting.emplace_back(std::move(batch), sort_scratch);
    if (runs.empty())  // (else all is merged at the end: the runs hold later records)
      drain([&](const Entry& e) { return e.time() < bound; },
            [&](const Entry& e, const CommFields& c) { write(e, c); });
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
      sink(first->head(), first->head_comm());
      ++first->next;
      --waiting_entries;
    }
    auto written = std::stable_partition(waiting.begin(), waiting.end(),
                                         [](const SortedBatch& batch) { return !batch.done(); });
    for (auto it = written; it != waiting.end(); ++it) emptied.push_back(std::move(it->records));
    waiting.erase(written, waiting.end());
  }

  void spill() {
    std::vector<FullRecord> sorted;
    sorted.reserve(waiting_entries);
    drain([](const Entry&) { return true; },
          [&](const Entry& e, const CommFields& c) {
            sorted.push_back({e, c});
          });
    runs.push_back(std::make_unique<Run>(sorted));
  }

  void resource(std::int32_t cpu, std::int32_t task, std::int32_t thread) {
    body.put_short<RowText::kMaxSize>(rows.get(cpu, task, thread));
  }

  void write(const Entry& e, const CommFields& c) {
    Kind kind = e.kind();
    if (kind == kEvent && event_line_open && e.key == last_event.key && e.cpu == last_event.cpu) {
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
        resource(e.cpu, e.task(), e.thread());
        body.field(e.time());
        body.field(e.a);
        body.field(e.b);
        last_event = e;
        event_line_open = true;
        return;
      case kRunningState:
      case kState:
        body.put('1');
        resource(e.cpu, e.task(), e.thread());
        body.field(e.time());
        body.field(e.a);
        body.field(e.b);
        break;
      case kComm:
        body.put('3');
        resource(e.cpu, e.task(), e.thread());
        body.field(e.time());
        body.field(e.a);
        resource(c.cpu, c.task, c.thread);
        body.field(e.b);
        body.field(c.physical_recv);
        body.put(':');
        body.signed_number(c.size);
        body.put(':');
        body.signed_number(c.tag);
        break;
    }
    body.end_line();
  }

  void write_rest() {
    if (runs.empty()) {
      drain([](const Entry&) { return true; },
            [&](const Entry& e, const CommFields& c) { write(e, c); });
    } else {
      if (waiting_entries) spill();
      auto later = [&](std::size_t x, std::size_t y) {
        Key kx = runs[x]->peek()->entry.key, ky = runs[y]->peek()->entry.key;
        return ky < kx || (ky == kx && y < x);
      };
      std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heads(later);
      for (std::size_t i = 0; i < runs.size(); ++i)
        if (runs[i]->peek()) heads.push(i);
      while (!heads.empty()) {
        std::size_t i = heads.top();
        heads.pop();
        write(runs[i]->peek()->entry, runs[i]->peek()->comm);
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

SortedBody::SortedBody(const std::string& path, const std::string& prefix)
    : state_(std::make_unique<State>(path, prefix)) {}
SortedBody::~SortedBody() = default;

void SortedBody::take(Batch&& batch, std::uint64_t bound) { state_->take(std::move(batch), bound); }

std::vector<Batch> SortedBody::take_emptied() { return std::exchange(state_->emptied, {}); }

void SortedBody::write_rest() { state_->write_rest(); }

}  // namespace tareador::trace::paraver
