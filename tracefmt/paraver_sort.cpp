// Sorting a Paraver trace's records with bounded memory: batches sorted once, merged as the
// producer's promises allow, spilled to sorted runs on disk when the promise lags.
#include "paraver_sort.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
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

// Sorts keys stably by their bits [low, low + bits): a least-significant-digit radix sort of
// digits of equal width, all counted first so that a digit every key shares is skipped.
template <class K>
void radix_sort(std::vector<K>& keys, std::vector<K>& scratch, std::vector<std::uint32_t>& counts,
                int low, int bits) {
  constexpr int kMaxDigitBits = 11;  // the counts of a digit stay in the first-level cache
  std::size_t n = keys.size();
  if (n == 0 || bits <= 0) return;
  const int digits = (bits + kMaxDigitBits - 1) / kMaxDigitBits;
  const int width = (bits + digits - 1) / digits;
  const std::size_t buckets = std::size_t{1} << width, mask = buckets - 1;
  counts.assign(static_cast<std::size_t>(digits) * buckets, 0);
  scratch.resize(n);
  // Plain locals and pointers in the loops: else the compiler reads the shift and the arrays
  // again after each count's store, which might alias them.
  for (int d = 0; d < digits; ++d) {
    const int shift = low + d * width;
    std::uint32_t* count = counts.data() + static_cast<std::size_t>(d) * buckets;
    for (const K* k = keys.data(); k != keys.data() + n; ++k)
      ++count[static_cast<std::size_t>(*k >> shift) & mask];
  }
  for (int d = 0; d < digits; ++d) {
    const int shift = low + d * width;
    std::uint32_t* start = counts.data() + static_cast<std::size_t>(d) * buckets;
    if (start[static_cast<std::size_t>(keys[0] >> shift) & mask] == n) continue;
    std::uint32_t sum = 0;
    for (std::size_t b = 0; b < buckets; ++b) sum += std::exchange(start[b], sum);
    const K* in = keys.data();
    K* out = scratch.data();
    for (std::size_t i = 0; i < n; ++i)
      out[start[static_cast<std::size_t>(in[i] >> shift) & mask]++] = in[i];
    keys.swap(scratch);
  }
}

int bit_width(std::uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

struct SortScratch {
  std::vector<std::uint64_t> packed_scratch;
  std::vector<Key> keys, keys_scratch;
  std::vector<std::uint32_t> counts;
  std::vector<std::vector<std::uint64_t>> spare_orders;  // of batches written, for reuse
};

// The order of `entries` by their keys, then arrival: `order` gets their indices, each in the
// bits `index_mask` covers. Usually a batch's keys fit in 64 bits once packed (time since the
// batch's earliest, then task, thread and kind in as few bits as they need, then the index),
// and a radix sort takes three passes over them; else the 128-bit keys are sorted.
void sort_batch(const std::vector<Entry>& entries, SortScratch& s,
                std::vector<std::uint64_t>& order, std::uint64_t& index_mask) {
  std::size_t n = entries.size();
  order.resize(n);
  index_mask = ~std::uint64_t{0};
  if (n == 0) return;
  std::uint64_t earliest = entries[0].time(), latest = earliest, tasks = 0, threads = 0;
  for (const Entry& e : entries) {
    earliest = std::min(earliest, e.time());
    latest = std::max(latest, e.time());
    tasks |= static_cast<std::uint64_t>(e.task());
    threads |= static_cast<std::uint64_t>(e.thread());
  }
  // Task, thread and kind: below the task, the key's thread and kind bits as they are (the
  // threads' unused high bits zero).
  int thread_kind_bits = bit_width(threads) + 2, index_bits = bit_width(n - 1);
  int row_bits = bit_width(tasks) + thread_kind_bits, time_bits = bit_width(latest - earliest);
  if (time_bits + row_bits + index_bits <= 64) {
    for (std::size_t i = 0; i < n; ++i) {
      auto low = static_cast<std::uint64_t>(entries[i].key);
      std::uint64_t row = (low >> kTaskShift) << thread_kind_bits |
                          ((low >> kKindShift) & ((std::uint64_t{1} << thread_kind_bits) - 1));
      order[i] = ((entries[i].time() - earliest) << row_bits | row) << index_bits | i;
    }
    radix_sort(order, s.packed_scratch, s.counts, index_bits, time_bits + row_bits);
    index_mask = (std::uint64_t{1} << index_bits) - 1;
    return;
  }
  s.keys.resize(n);
  for (std::size_t i = 0; i < n; ++i) s.keys[i] = entries[i].key | i;
  radix_sort(s.keys, s.keys_scratch, s.counts, kArrivalBits, 128 - kArrivalBits);
  for (std::size_t j = 0; j < n; ++j)
    order[j] = static_cast<std::uint64_t>(s.keys[j] & kArrivalMask);
}

// A batch of records as the producer handed it over, with its order: it waits in place (its
// records are sorted once and never copied while they wait) until it is written.
struct SortedBatch {
  Batch records;                     // in arrival order
  std::vector<std::uint64_t> order;  // sorted; the index into records.entries in index_mask
  std::uint64_t index_mask = 0;
  std::size_t next = 0;  // into order

  SortedBatch(Batch&& batch, SortScratch& scratch) : records(std::move(batch)) {
    if (!scratch.spare_orders.empty()) {
      order = std::move(scratch.spare_orders.back());
      scratch.spare_orders.pop_back();
    }
    sort_batch(records.entries, scratch, order, index_mask);
  }
  bool done() const { return next == order.size(); }
  const Entry& head() const { return records.entries[order[next] & index_mask]; }
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
  Key open_event_key = 0;
  std::int32_t open_event_cpu = 0;
  // The times (and event types) of a field, as the last record wrote them.
  NumberText time_text, end_text, type_text, psend_text, lrecv_text, precv_text;

  State(const std::string& path, const std::string& prefix) : body(path) { body.put(prefix); }

  // Takes a batch (in arrival order) and writes every record earlier than `bound`.
  void take(Batch&& batch, std::uint64_t bound) {
    waiting_entries += batch.entries.size();
    waiting.emplace_back(std::move(batch), sort_scratch);
    if (runs.empty())  // (else all is merged at the end: the runs hold later records)
      drain(bound, [&](const Entry& e, const CommFields& c) { write(e, c); });
    if (waiting_entries >= kPendingEntries) spill();
  }

  static constexpr std::uint64_t kEverything = ~std::uint64_t{0};

  // Hands the waiting records earlier than `ready_before` (or all) to `sink` in order. On equal
  // keys the earlier batch goes first: its records came first.
  template <class Sink>
  void drain(std::uint64_t ready_before, Sink&& sink) {
    for (bool more = true; more;) {
      // The batch of the least head, and of the least head of the others: the first gives its
      // records until its head passes the second's.
      SortedBatch *first = nullptr, *second = nullptr;
      for (SortedBatch& batch : waiting) {
        if (batch.done()) continue;
        if (!first || batch.head().key < first->head().key) {
          second = first;
          first = &batch;
        } else if (!second || batch.head().key < second->head().key) {
          second = &batch;
        }
      }
      if (!first) break;
      Key limit = second ? second->head().key : ~Key{0};
      bool first_goes_on_ties = !second || first < second;
      // Most records are before the second's time and the promised one: one comparison.
      std::uint64_t clear_before = std::min(static_cast<std::uint64_t>(limit >> 64), ready_before);
      std::size_t start = first->next;
      do {
        const Entry& e = first->head();
        if (e.time() >= clear_before) {
          if (limit < e.key || (e.key == limit && !first_goes_on_ties)) break;
          if (e.time() >= ready_before && ready_before != kEverything) {
            more = false;
            break;
          }
        }
        sink(e, first->head_comm());
      } while (++first->next < first->order.size());
      waiting_entries -= first->next - start;
    }
    auto written = std::stable_partition(waiting.begin(), waiting.end(),
                                         [](const SortedBatch& batch) { return !batch.done(); });
    for (auto it = written; it != waiting.end(); ++it) {
      emptied.push_back(std::move(it->records));
      sort_scratch.spare_orders.push_back(std::move(it->order));
    }
    waiting.erase(written, waiting.end());
  }

  void spill() {
    std::vector<FullRecord> sorted;
    sorted.reserve(waiting_entries);
    drain(kEverything, [&](const Entry& e, const CommFields& c) { sorted.push_back({e, c}); });
    runs.push_back(std::make_unique<Run>(sorted));
  }

  char* row(char* p, std::int32_t cpu, std::int32_t task, std::int32_t thread) {
    std::string_view text = rows.get(cpu, task, thread);
    std::memcpy(p, text.data(), RowText::kMaxSize);  // a fixed size: no variable-length copy
    return p + text.size();
  }

  static char* field(char* p, std::uint64_t v) {
    *p++ = ':';
    if (v >= 10) return format_decimal(p, v);
    *p = static_cast<char>('0' + v);
    return p + 1;
  }

  static char* field(char* p, NumberText& text, std::uint64_t v) {
    *p++ = ':';
    return text.put(p, v);
  }

  static char* signed_field(char* p, std::int64_t v) {
    if (v >= 0) return field(p, static_cast<std::uint64_t>(v));
    *p++ = ':';
    *p++ = '-';
    return format_decimal(p, static_cast<std::uint64_t>(-(v + 1)) + 1);
  }

  // Writes a record's text in one piece (at most a few hundred bytes, well within the output's
  // slack): a line, or an event appended to the line open. Inlined in the loops that call it:
  // a call would save and restore most registers for each record.
  [[gnu::always_inline]] void write(const Entry& e, const CommFields& c) {
    Kind kind = e.kind();
    char* p = body.cursor();
    if (event_line_open) {
      if (kind == kEvent && e.key == open_event_key && e.cpu == open_event_cpu) {
        p = field(p, type_text, e.a);
        body.advance(field(p, e.b));
        return;
      }
      *p++ = '\n';
      event_line_open = false;
    }
    *p++ = kind == kEvent ? '2' : kind == kComm ? '3' : '1';
    p = row(p, e.cpu, e.task(), e.thread());
    p = field(p, time_text, e.time());
    switch (kind) {
      case kEvent:
        p = field(p, type_text, e.a);
        p = field(p, e.b);
        open_event_key = e.key;  // the line stays open for the events that follow
        open_event_cpu = e.cpu;
        event_line_open = true;
        body.advance(p);
        return;
      case kRunningState:
      case kState:
        p = field(p, end_text, e.a);
        p = field(p, e.b);
        break;
      case kComm:
        p = field(p, psend_text, e.a);
        p = row(p, c.cpu, c.task, c.thread);
        p = field(p, lrecv_text, e.b);
        p = field(p, precv_text, c.physical_recv);
        p = signed_field(p, c.size);
        p = signed_field(p, c.tag);
        break;
    }
    *p++ = '\n';
    body.advance(p);
  }

  void write_rest() {
    if (runs.empty()) {
      drain(kEverything, [&](const Entry& e, const CommFields& c) { write(e, c); });
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
