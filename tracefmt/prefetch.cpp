// Prefetching: a background thread parses the streams of a trace into per-stream rings of
// records, which the consumer (the replay engine) drains. One thread parses, one simulates.
//
// Each ring is single-producer single-consumer: the worker writes at `tail`, the consumer reads
// at `head`. Sleeping and waking go through one mutex and two condition variables; the hot
// paths only touch atomics.
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>

#include "tareador/trace.h"
#include "tracefmt/line_reader.h"

namespace tareador::trace {

namespace {

constexpr std::size_t kBudgetBytes = 8 << 20;  // records read ahead, all streams together
constexpr std::size_t kMinRing = 64, kMaxRing = 4096;
constexpr std::size_t kChunk = 256;              // records parsed per visit to a stream
constexpr std::size_t kMaxPrefetched = 1 << 12;  // streams; their rings take kMinRing each

using Entry = MarkedRecord;
static_assert(std::is_trivially_copyable_v<Entry> && std::is_trivially_destructible_v<Entry>);

// A ring's entries are left untouched until the worker writes them (every entry is written
// before it is read): initialising megabytes of them would fault their pages in on the
// consumer's thread before the replay starts, which is most of a short replay's time.
struct FreeEntries {
  void operator()(Entry* entries) const { std::free(entries); }
};

struct Ring {
  std::unique_ptr<RecordStream> source;  // used by the worker only (but where(mark))
  LineRecordStream* lines = nullptr;     // the source, when it reads many records at a call
  std::unique_ptr<Entry[], FreeEntries> entries;
  std::size_t mask = 0;
  std::atomic<std::uint64_t> head{0}, tail{0};
  std::atomic<std::uint64_t> bytes_read{0};
  std::atomic<bool> finished{false};  // the worker reached the end (or an error)
  std::exception_ptr error;           // set before `finished`
};

class Prefetcher {
 public:
  explicit Prefetcher(std::size_t streams) {
    std::size_t per_stream = kBudgetBytes / sizeof(Entry) / std::max<std::size_t>(streams, 1);
    capacity_ = kMinRing;
    while (capacity_ * 2 <= std::min(per_stream, kMaxRing)) capacity_ *= 2;
  }

  ~Prefetcher() { stop(); }

  // Ends the worker; the rings keep what they hold.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_.notify_one();
    if (worker_.joinable()) worker_.join();
  }

  Ring* add(std::unique_ptr<RecordStream> source) {
    auto ring = std::make_unique<Ring>();
    ring->source = std::move(source);
    ring->lines = dynamic_cast<LineRecordStream*>(ring->source.get());
    ring->entries.reset(static_cast<Entry*>(std::malloc(capacity_ * sizeof(Entry))));
    if (!ring->entries) throw std::bad_alloc();
    ring->mask = capacity_ - 1;
    std::lock_guard<std::mutex> lock(mutex_);
    rings_.push_back(std::move(ring));
    return rings_.back().get();
  }

  // The next record of `ring`, false at its end; rethrows the worker's error in its place.
  bool next(Ring& ring, Record& out, std::uint64_t& mark) {
    std::uint64_t head = ring.head.load(std::memory_order_relaxed);
    if (head == ring.tail.load(std::memory_order_acquire) && !wait_for_data(ring, head)) {
      if (ring.error) std::rethrow_exception(ring.error);
      return false;
    }
    const Entry& entry = ring.entries[head & ring.mask];
    out = entry.record;  // straight to the consumer's record: one copy
    mark = entry.mark;
    ring.head.store(head + 1, std::memory_order_release);
    // The entries were written by the other core: ask for the next one now, it is needed later.
    const char* upcoming = reinterpret_cast<const char*>(&ring.entries[(head + 1) & ring.mask]);
    __builtin_prefetch(upcoming);
    __builtin_prefetch(upcoming + 64);
    // Three quarters empty: time to refill (only a sleeping worker needs a nudge; it then tops
    // up every ring, so nudges stay rare).
    if (idle_.load(std::memory_order_relaxed) &&
        ring.tail.load(std::memory_order_relaxed) - head - 1 < capacity_ / 4 &&
        !ring.finished.load(std::memory_order_relaxed))
      nudge();
    return true;
  }

 private:
  void start_once() {
    std::call_once(started_, [this] { worker_ = std::thread([this] { run(); }); });
  }

  void nudge() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pending_ = true;
    }
    work_.notify_one();
  }

  // Waits until `ring` has a record after `head` (true) or is finished without one (false).
  bool wait_for_data(Ring& ring, std::uint64_t head) {
    start_once();
    std::unique_lock<std::mutex> lock(mutex_);
    wanted_ = &ring;
    pending_ = true;
    work_.notify_one();
    data_.wait(lock, [&] {
      return ring.tail.load(std::memory_order_acquire) != head ||
             ring.finished.load(std::memory_order_acquire);
    });
    // The tail is read again: records published just before `finished` still count.
    return ring.tail.load(std::memory_order_acquire) != head;
  }

  // Parses up to `limit` records into `ring`. Returns whether it did anything.
  bool fill(Ring& ring, std::size_t limit) {
    if (ring.finished.load(std::memory_order_relaxed)) return false;
    std::uint64_t tail = ring.tail.load(std::memory_order_relaxed);
    std::size_t room =
        capacity_ - static_cast<std::size_t>(tail - ring.head.load(std::memory_order_acquire));
    std::size_t n = 0, want = std::min(room, limit), read = 0;
    if (want == 0) return false;
    bool finished = false;
    try {
      for (; n < want && !finished; n += read) {  // (twice where the ring wraps)
        std::size_t at = (tail + n) & ring.mask, part = std::min(want - n, capacity_ - at);
        if (ring.lines) ring.lines->next_records(&ring.entries[at], part, read);
        else read_records(*ring.source, &ring.entries[at], part, read);
        finished = read < part;
      }
    } catch (...) {
      n += read;
      ring.error = std::current_exception();
      finished = true;
    }
    ring.bytes_read.store(ring.source->bytes_read(), std::memory_order_relaxed);
    ring.tail.store(tail + n, std::memory_order_release);
    if (finished) ring.finished.store(true, std::memory_order_release);
    return n > 0 || finished;
  }

  void run() {
    for (;;) {
      std::vector<Ring*> rings;
      Ring* wanted;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stop_) return;
        wanted = wanted_;
        wanted_ = nullptr;
        for (auto& r : rings_) rings.push_back(r.get());
      }
      bool worked = false;
      if (wanted) worked |= fill(*wanted, capacity_);
      for (Ring* r : rings) worked |= fill(*r, kChunk);
      std::unique_lock<std::mutex> lock(mutex_);
      if (worked) {
        lock.unlock();
        data_.notify_all();
        continue;
      }
      idle_.store(true, std::memory_order_relaxed);
      work_.wait(lock, [&] { return stop_ || pending_; });
      idle_.store(false, std::memory_order_relaxed);
      pending_ = false;
    }
  }

  std::size_t capacity_;
  std::vector<std::unique_ptr<Ring>> rings_;
  std::mutex mutex_;
  std::condition_variable work_;  // the worker waits here for something to do
  std::condition_variable data_;  // consumers wait here for records
  Ring* wanted_ = nullptr;        // a ring its consumer is waiting on: filled first
  bool pending_ = false, stop_ = false;
  std::atomic<bool> idle_{false};
  std::once_flag started_;
  std::thread worker_;
};

class PrefetchStream final : public RecordStream {
 public:
  PrefetchStream(std::shared_ptr<Prefetcher> prefetcher, Ring* ring)
      : prefetcher_(std::move(prefetcher)), ring_(ring) {}

  bool next(Record& out) override { return prefetcher_->next(*ring_, out, mark_); }
  std::string where() const override { return ring_->source->where(mark_); }
  std::uint64_t mark() const override { return mark_; }
  std::string where(std::uint64_t mark) const override { return ring_->source->where(mark); }
  std::uint64_t bytes_read() const override {
    return ring_->bytes_read.load(std::memory_order_relaxed);
  }

 private:
  std::shared_ptr<Prefetcher> prefetcher_;
  Ring* ring_;
  std::uint64_t mark_ = 0;  // of the record last returned
};

class PrefetchTrace final : public Trace {
 public:
  explicit PrefetchTrace(std::unique_ptr<Trace> source) : source_(std::move(source)) {
    std::size_t streams = 0;
    for (int threads : source_->header().threads) streams += static_cast<std::size_t>(threads);
    prefetcher_ = std::make_shared<Prefetcher>(streams);
  }
  // The sources' streams read this trace's header and files: the worker stops first.
  ~PrefetchTrace() override { prefetcher_->stop(); }
  const TraceHeader& header() const override { return source_->header(); }
  std::unique_ptr<RecordStream> open(int task, int thread) const override {
    return std::make_unique<PrefetchStream>(prefetcher_,
                                            prefetcher_->add(source_->open(task, thread)));
  }
  std::uint64_t size_bytes() const override { return source_->size_bytes(); }

 private:
  std::unique_ptr<Trace> source_;
  std::shared_ptr<Prefetcher> prefetcher_;
};

}  // namespace

std::unique_ptr<Trace> prefetch(std::unique_ptr<Trace> trace) {
  if (trace->header().kind == "tasks") return trace;  // already in memory
  // Every stream holds a ring of at least kMinRing records: past kMaxPrefetched, read directly.
  std::size_t streams = 0;
  for (int threads : trace->header().threads) streams += static_cast<std::size_t>(threads);
  if (streams > kMaxPrefetched) return trace;
  return std::make_unique<PrefetchTrace>(std::move(trace));
}

}  // namespace tareador::trace
