// The body of a Paraver trace: records sorted by time with bounded memory (the writer's
// thread, see ParaverWriter in paraver.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tareador::trace::paraver {

enum Kind : std::uint8_t { kEvent = 0, kRunningState = 1, kState = 2, kComm = 3 };

// Records sort by time, then task, thread and kind (events, running, other states,
// communications: the order Dimemas writes), then arrival. All of it is one 128-bit key: time
// in the high word; task, thread and kind in the low word, above kArrivalBits bits that the
// sort fills with the record's index among the pending ones (which is its arrival order).
using Key = unsigned __int128;
inline constexpr int kArrivalBits = 30, kKindShift = 30, kThreadShift = 32, kTaskShift = 44;
inline constexpr Key kArrivalMask = (Key{1} << kArrivalBits) - 1;
inline constexpr int kMaxRowTasks = 1 << 20, kMaxRowThreads = 1 << 12;  // what the keys hold

// One record, in 40 bytes: the producer writes millions, the writer's thread sorts them.
struct Entry {
  Key key;             // without the arrival bits
  std::uint64_t a, b;  // state: end, value; event: type, value; communication: psend, lrecv
  std::int32_t cpu;    // the row's CPU
  std::uint32_t comm;  // a communication: its CommFields in the batch
  std::uint64_t time() const { return static_cast<std::uint64_t>(key >> 64); }
  Kind kind() const {
    return static_cast<Kind>((static_cast<std::uint64_t>(key) >> kKindShift) & 3);
  }
  std::int32_t task() const {
    return static_cast<std::int32_t>((static_cast<std::uint64_t>(key) >> kTaskShift) &
                                     (kMaxRowTasks - 1));
  }
  std::int32_t thread() const {
    return static_cast<std::int32_t>((static_cast<std::uint64_t>(key) >> kThreadShift) &
                                     (kMaxRowThreads - 1));
  }
};

// What a communication has beyond an Entry: kept apart, as most records are not communications.
struct CommFields {
  std::uint64_t physical_recv = 0;
  std::int64_t size = 0, tag = 0;
  std::int32_t cpu = 0, task = 0, thread = 0;  // the receiver's row
};

// Records in the order the producer hands them over.
struct Batch {
  std::vector<Entry> entries;
  std::vector<CommFields> comms;
  void clear() {
    entries.clear();
    comms.clear();
  }
};

inline Key make_key(std::uint64_t time, int task, int thread, Kind kind) {
  return (static_cast<Key>(time) << 64) | (static_cast<std::uint64_t>(task) << kTaskShift) |
         (static_cast<std::uint64_t>(thread) << kThreadShift) |
         (static_cast<std::uint64_t>(kind) << kKindShift);
}

inline constexpr std::size_t kPendingEntries = 1 << 18;  // ~20 MB of records waiting to be final
inline constexpr std::size_t kMergeBuffer = 1 << 11;  // entries read at once from each spilled run

// Records become final in time order when the producer promises that nothing earlier will
// come; they are then written to the body file. When the promise lags (a thread blocked for
// long) and too many records wait, they are merged into a sorted run on disk, and the runs are
// merged at the end.
class SortedBody {
 public:
  // Creates the file at `path` and writes `prefix` (the trace's header) before the records.
  SortedBody(const std::string& path, const std::string& prefix);
  ~SortedBody();
  SortedBody(const SortedBody&) = delete;
  SortedBody& operator=(const SortedBody&) = delete;

  // Takes a batch (in arrival order) and writes every record earlier than `bound`.
  void take(Batch&& batch, std::uint64_t bound);
  // The batches written since the last call, emptied, for the producer to reuse.
  std::vector<Batch> take_emptied();
  // Writes every record left and closes the body file.
  void write_rest();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tareador::trace::paraver
