// tracefmt.h — Tareador's trace model and the formats it is read from and written to.
//
// A trace is, per task (MPI rank) and thread, an ordered stream of records: CPU bursts and
// MPI activity with Dimemas semantics. Traces are *streamed*: a reader hands out one record at
// a time per stream, so a replay never holds a whole trace in memory.
//
// Formats: Dimemas 5 `.dim` (read/write), the native trace set (a directory written by the
// Valgrind tool; read/write, see docs/trace-format.md) and Paraver `.prv/.pcf/.row` (write).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tareador::trace {

// An error in an input file, located at file:line (line 0 when the whole file is at fault).
class FormatError : public std::runtime_error {
 public:
  FormatError(std::string file, std::uint64_t line, const std::string& message);
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }
  const std::string& message() const { return message_; }  // what() without "file:line: "

 private:
  std::string file_;
  std::uint64_t line_;
  std::string message_;
};

// ---- Input files and messages ---------------------------------------------------------------
//
// Every reader opens its inputs with open_input_file: only regular files are read, and opening
// never blocks (a FIFO or a device is refused before anything waits on it).

struct InputFile {
  int fd = -1;  // open for reading (blocking mode, close-on-exec); the caller closes it
  std::uint64_t size = 0, device = 0, inode = 0;
};
// Throws FormatError (path, line 0): "cannot open: ..." or "not a regular file (a FIFO)".
InputFile open_input_file(const std::string& path);
// The whole of `path`, refused unless at most `max_bytes` long ("is N bytes; WHAT is at most M
// bytes"): inputs read whole are small by nature (manifests, machine files).
std::string read_input_file(const std::string& path, std::uint64_t max_bytes, const char* what);
// The 1-based line of the first byte of `text` that is not valid UTF-8; 0 if it is all valid.
std::uint64_t first_invalid_utf8_line(std::string_view text);
// `text` for an error message: quoted, at most `max` characters, bytes that are not printable
// (or not UTF-8) escaped as \xNN, "... (N bytes)" when cut. A 1 GB field makes a short message.
std::string excerpt(std::string_view text, std::size_t max = 40);
// The same without the quotes (for text that is quoted already, or a value as written).
std::string clipped(std::string_view text, std::size_t max = 40);
// `text` as one field of a CSV file (RFC 4180): quoted, quotes doubled, when it holds a comma, a
// quote or a line end; as it is otherwise.
std::string csv_field(const std::string& text);
// What errno `error` means, in the words of the project's messages ("permission denied").
std::string system_error_text(int error);
// Output files, checked before a command works for minutes. make_output_directory creates `dir`
// (with its parents) and checks that it can be written into; check_output_file that `path`
// can be written (an existing file is opened for writing, a new one created and removed).
// Both throw FormatError (path, line 0): "cannot write: permission denied".
void make_output_directory(const std::string& dir);
void check_output_file(const std::string& path);
// Writes what standard output holds and checks that it went out; throws FormatError
// ("standard output: write error: no space left on the device") when it did not.
void flush_stdout();

// ---- Limits (docs/trace-format.md, "Limits") ----------------------------------------------
//
// What a header may declare, checked before anything is allocated for it. A trace has at most
// kMaxTasks tasks (ranks) and kMaxStreams streams (threads, or task instances) in all, and
// never more streams than its files have bytes (every stream needs at least one).
inline constexpr std::int64_t kMaxTasks = std::int64_t{1} << 24;
inline constexpr std::uint64_t kMaxStreams = std::uint64_t{1} << 24;
// Files read whole: manifests (manifest.toml, rank-N.toml) and machine files.
inline constexpr std::uint64_t kMaxSmallFileBytes = std::uint64_t{64} << 20;
// A MIPS rate (instructions per microsecond) is above 0 and at most this.
inline constexpr double kMaxMips = 1e9;

enum class RecordType : std::uint8_t {
  Burst,     // computation: `amount` seconds, or instructions when kInstructions is set
  Send,      // to task `peer`: `bytes`, `tag`, `comm`; immediate sends may carry a `request`
             // (0 = none: Dimemas traces never wait for sends)
  Recv,      // from task `peer`: `bytes`, `tag`, `comm`; immediate receives carry a `request`
  Wait,      // block until `request` (an immediate send, receive or collective of this stream)
             // completes
  GlobalOp,  // collective `op` on `comm`, `bytes` sent and `bytes_recv` received; `peer` is
             // this task when it is the root, else -1. kImmediate: starts it without waiting,
             // with a `request` a Wait completes (0: a kCollectiveWait record does, Dimemas')
  Event,     // user event: `event_type` = `event_value`
  Call,      // an MPI call that is not modelled (opaque): `event_value` names it; costs nothing
             // (a Dimemas no-op record reads as the call kNoopCall)
  // Task traces (kind "tasks") only; a thread of such a trace is a task instance (thread index
  // = instance id - 1):
  Spawn,  // creates instance `peer` (its creation point in this instance)
  After,  // waits until instance `peer` has ended: `bytes` bytes cause it, `op` holds the
          // dependency kinds (kRaw | kWar | kWaw)
};

// The name of the opaque call a Dimemas no-op record (0) stands for.
inline constexpr std::string_view kNoopCall = "noop";

// Record::flags
inline constexpr std::uint8_t kImmediate = 1 << 0;       // Send/Recv/GlobalOp: returns at once
inline constexpr std::uint8_t kRendezvous = 1 << 1;      // Send: waits for the receive to be posted
inline constexpr std::uint8_t kProtocolFixed = 1 << 2;   // Send: eager_limit does not override
inline constexpr std::uint8_t kInstructions = 1 << 3;    // Burst: amount is an instruction count
inline constexpr std::uint8_t kJoinedWait = 1 << 4;      // Wait: continues the previous wait
                                                         // (one `wait` line of a native stream)
inline constexpr std::uint8_t kCollectiveWait = 1 << 5;  // GlobalOp: waits for this thread's
                                                         // oldest immediate collective
inline constexpr std::uint8_t kAccelerator = 1 << 6;     // Burst: runs on an accelerator (Dimemas
                                                         // record 11)

// One record of a stream. A flat struct rather than a variant: records are copied in the
// replayer's innermost loop. Which fields mean something depends on `type` (see RecordType).
// The cache line of the native streams' `lines=` fields (docs/trace-format.md), bytes.
inline constexpr std::int64_t kTraceLineBytes = 64;

struct Record {
  RecordType type = RecordType::Burst;
  std::uint8_t flags = 0;
  std::int32_t op = 0;            // GlobalOp: Dimemas global operation id (GlobalOpId)
  std::int32_t peer = -1;         // Send: destination; Recv: source; GlobalOp: own task if root
  std::int32_t peer_thread = -1;  // thread of the peer, -1 = any
  std::int32_t comm = 0;
  // Send: the unique 64-byte cache lines its data touches (kTraceLineBytes; a derived datatype's
  // layout, `lines=` in native streams); 0 = not recorded (contiguous from a line's start).
  // 32 bits fill the padding before `tag`: the record stays 80 bytes.
  std::int32_t lines = 0;
  std::int64_t tag = 0;           // MPI's (an int); the overlap kinds' chunk tags reach 2^37
  std::int64_t bytes = 0;         // Send/Recv size; GlobalOp: bytes sent
  std::int64_t bytes_recv = 0;    // GlobalOp: bytes received
  std::uint64_t request = 0;      // immediate Send/Recv/GlobalOp: its request id; Wait: the one
                                  // waited on
  double amount = 0;              // Burst duration (seconds, or instructions with kInstructions)
  std::uint64_t event_type = 0;   // Event
  std::uint64_t event_value = 0;  // Event; Call: the opaque call's name index in the header

  bool immediate() const { return flags & kImmediate; }
};

// Where a point-to-point record is matched: the sends and receives of one channel pair in
// FIFO order. As in Dimemas 5.5, a record that names the peer's thread (a `.dim` thread id
// other than -1) is matched between the two threads; one that does not (-1, and every record of
// a trace set) between the two tasks (its thread fields are -1).
struct Channel {
  std::int32_t src_task = 0, src_thread = -1, dst_task = 0, dst_thread = -1;
  std::int64_t tag = 0;
  std::int32_t comm = 0;

  // Inline: the replay's matching compares channels at every message.
  bool operator==(const Channel& o) const {
    return src_task == o.src_task && dst_task == o.dst_task && tag == o.tag && comm == o.comm &&
           src_thread == o.src_thread && dst_thread == o.dst_thread;
  }
  bool operator<(const Channel& o) const;
};
// A hash of a channel, well mixed in its low bits (the replay's open-addressing match table
// masks them); inline for the same reason as operator==.
struct ChannelHash {
  std::size_t operator()(const Channel& k) const {
    auto pair = [](std::int32_t a, std::int32_t b) {
      return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
             static_cast<std::uint32_t>(b);
    };
    std::uint64_t a = pair(k.dst_task, k.src_task);
    std::uint64_t b = pair(static_cast<std::int32_t>(k.tag ^ (k.tag >> 32)), k.comm);
    std::uint64_t c = pair(k.dst_thread, k.src_thread);
    std::uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x7F4A7C159E3779B9ull + (a << 6));
    h ^= c * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};
// The channel of `record` (a Send or a Recv) of thread `thread` of task `task`.
Channel channel_of(const Record& record, int task, int thread);

// The tag of the transfers of neighbourhood collectives (the tool's; the overlap kinds' chunks
// of them have tags of at most this). Above it, a negative tag is a transfer of a collective
// the overlap kinds broke up (docs/tool.md, "Tags").
inline constexpr std::int64_t kNeighbourhoodTag = -(std::int64_t{1} << 24);

// Record::op of an After record, and TaskDependency::kinds: what causes the dependency.
inline constexpr std::uint8_t kRaw = 1 << 0;  // read after write (true dependency)
inline constexpr std::uint8_t kWar = 1 << 1;  // write after read (anti-dependency)
inline constexpr std::uint8_t kWaw = 1 << 2;  // write after write (output dependency)

// Dimemas global operation ids (the ids Dimemas 5 traces use in record 10).
// The table of the Dimemas 5 simulator (include/define.h); its translators number 13 onwards
// differently, which only matters for names since every id gets the same model by default.
enum GlobalOpId : int {
  kBarrier = 0,
  kBcast = 1,
  kGather = 2,
  kGatherv = 3,
  kScatter = 4,
  kScatterv = 5,
  kAllgather = 6,
  kAllgatherv = 7,
  kAlltoall = 8,
  kAlltoallv = 9,
  kReduce = 10,
  kAllreduce = 11,
  kReduceScatter = 12,
  kReduceScatterBlock = 13,
  kScan = 14,
  kAlltoallw = 15,
};
inline constexpr int kGlobalOpCount = 16;
// "MPI_Allreduce" for kAllreduce; empty for an unknown id.
std::string_view global_op_name(int id);
// Inverse of global_op_name, case-insensitive, with or without the "MPI_" prefix; -1 if unknown.
// MPI_Exscan is modelled as MPI_Scan, a non-blocking collective (MPI_Iallreduce) as its blocking
// one.
int global_op_from_name(std::string_view name);

struct Communicator {
  int id = 0;
  std::vector<int> tasks;  // members, in rank order within the communicator
};
// The first task `tasks` lists more than once, or -1 (a communicator has each member once).
int repeated_member(std::vector<int> tasks);

// The trace kinds of a trace set (SPEC 3.2; overlap-speculative: the overlap of the speculative
// dataflow protocol, thesis 5.3.1; authentic-p2p: the authentic run with collectives as the
// point-to-point transfers of the overlap kinds, their baseline). Dimemas files have kind
// "dimemas".
inline constexpr std::string_view kKinds[] = {
    "authentic", "overlap-real", "overlap-ideal", "overlap-speculative", "authentic-p2p", "tasks"};

// ---- The task model (kind "tasks"; docs/trace-format.md, "The tasks stream") ------------

// The kinds of memory objects: the program's heap blocks, globals and stack (local variables,
// frames), read-only memory (constants, code), a library's own memory, and anything else.
inline constexpr std::string_view kObjectKinds[] = {"heap",  "global",  "stack",
                                                    "const", "library", "other"};

// A memory object of a rank (`object` line).
struct TaskObject {
  int id = 0;
  std::string kind;       // one of kObjectKinds
  std::int64_t size = 0;  // bytes
  std::string name;
  // A stack object some instance reached as a caller's (TaskUse::outer): data the tasks share
  // through a pointer, named in their clauses, not a local of the code that creates them.
  bool caller = false;
};

// A line of the program's sources, from the debug information (version 3 streams): `file`
// indexes TaskSet::source_files; -1 when the stream does not say.
struct SourceSite {
  int file = -1;
  int line = 0;
  bool known() const { return file >= 0; }
};

// A read-only (for T const) or writable view of consecutive elements of an array: what the
// task model's accessors return (C++17 has no std::span). Valid while the array is not changed.
template <class T>
class Span {
 public:
  Span() = default;
  Span(T* data, std::size_t size) : data_(data), size_(size) {}
  template <class U, class = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  Span(Span<U> other) : data_(other.data()), size_(other.size()) {}  // NOLINT: T from T const
  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }
  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) const { return data_[i]; }
  T& front() const { return data_[0]; }
  T& back() const { return data_[size_ - 1]; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Where a list of an instance lies in an array of its TaskSet: elements [first, first + count).
struct TaskList {
  std::uint32_t first = 0, count = 0;
};

// `after FROM KINDS BYTES OBJS [SITE]`: the instance waits there until instance `from` has ended.
struct TaskDependency {
  int from = 0;            // instance id
  std::uint8_t kinds = 0;  // kRaw | kWar | kWaw
  std::int64_t bytes = 0;  // bytes causing it
  SourceSite site;         // on a descendant: where the instance's own code first used it
  TaskList objects;        // its object ids: TaskSet::objects_of
};

// `uses OBJ READ WRITTEN [disabled] [local] [outer] [span FIRST END]`: bytes of an object the
// instance itself read and wrote, and the offsets [span_first, span_end) they lie in (span_end
// 0: not known).
struct TaskUse {
  int object = 0;
  std::int64_t read = 0, written = 0;
  bool disabled = false;  // while the object was disabled (tareador_disable_object)
  bool local = false;     // a heap block the instance allocated and freed: its own temporary
  std::int64_t span_first = 0, span_end = 0;
  // A stack object of a caller of the function that created the instance (a matrix of `main`
  // passed down): reached through a pointer, shared like a heap block, not a local it copies.
  bool outer = false;
};

// A spawn or an after of an instance, in record order (TaskSet::steps): with them an instance
// is a sequence of points, and the spawn and after edges between points of different instances
// make a DAG even where a parent waits for its children.
struct TaskStep {
  bool spawn = false;       // else an after
  int index = 0;            // into the instance's children (spawn) or after (TaskSet::...)
  double instructions = 0;  // instructions of the instance since its previous step (or start)
};

// One task instance (one section of a tasks stream). Its lists (dependencies, children, uses,
// steps) lie in arrays of its TaskSet, read through the set's accessors: an instance holds no
// allocation of its own, so millions of them fit in memory.
struct TaskInstance {
  int id = 0;               // 1 = the main task
  int type = 0;             // index into TaskSet::types
  int parent = 0;           // instance that spawned it; 0 for the main task
  bool mpi = false;         // holds MPI records (send, recv, wait, coll)
  double instructions = 0;  // sum of its own bursts (instructions; seconds in a Dimemas-like
                            // trace without MIPS never occur in task traces)
  SourceSite start_site, end_site;  // its tareador_start_task and _end_task (_ON, _OFF)
  std::uint64_t line = 0;           // line of its `task` record in the stream (for reports)
  // Its lists in the set's arrays: every `after` of the section in order; the instances it
  // spawned in spawn order (with, per child, where its own code created it); its uses; its
  // spawns and afters in order (instructions after the last step: `instructions` minus the
  // steps' sum).
  TaskList after, children, uses, steps;
};

// The tasks of one rank. Instances are added with add_instance and their lists grown with
// add_after, add_spawn, add_use (each also appends the step where it applies): appending to
// the instance added last costs one element; to another one moves its list to the end first.
struct TaskSet {
  std::vector<std::string> types;         // task type names, in order of first appearance
  std::vector<TaskObject> objects;        // in order of declaration
  std::vector<TaskInstance> instances;    // instances[i].id == i + 1
  std::vector<std::string> source_files;  // the files SourceSite::file names
  std::string path;                       // the tasks.N.trc file it was read from

  const TaskObject* object(int id) const;  // nullptr if unknown
  const TaskInstance& instance(int id) const { return instances[static_cast<std::size_t>(id - 1)]; }
  TaskInstance& instance(int id) { return instances[static_cast<std::size_t>(id - 1)]; }

  // The lists of an instance of this set.
  Span<const TaskDependency> after(const TaskInstance& in) const { return view(after_, in.after); }
  Span<TaskDependency> after(const TaskInstance& in) { return view(after_, in.after); }
  Span<const int> children(const TaskInstance& in) const { return view(children_, in.children); }
  // Per child: where the instance's own code created it.
  Span<const SourceSite> spawn_sites(const TaskInstance& in) const {
    return view(spawn_sites_, in.children);
  }
  Span<SourceSite> spawn_sites(const TaskInstance& in) { return view(spawn_sites_, in.children); }
  // (Empty in a trace opened without them: OpenOptions::task_uses.)
  Span<const TaskUse> uses(const TaskInstance& in) const { return view(uses_, in.uses); }
  Span<TaskUse> uses(const TaskInstance& in) { return view(uses_, in.uses); }
  Span<const TaskStep> steps(const TaskInstance& in) const { return view(steps_, in.steps); }
  Span<TaskStep> steps(const TaskInstance& in) { return view(steps_, in.steps); }
  Span<const int> objects_of(const TaskDependency& d) const {
    return view(dependency_objects_, d.objects);
  }

  // Adds `in` (its lists empty) as instance `in.id`, or as instances.size() + 1 when in.id is
  // 0, and returns it. Instances below it not added yet are placeholders (id 0).
  TaskInstance& add_instance(TaskInstance in);
  // Appends to the lists of instance `id`: a dependency on the objects `objects` and its step
  // (`instructions` since the previous step) when `with_step`; a child created at `site` and
  // its step; a use. Throws std::length_error past 2^32 elements of a list kind in the set.
  void add_after(int id, TaskDependency d, const std::vector<int>& objects, double instructions = 0,
                 bool with_step = true);
  void add_spawn(int id, int child, SourceSite site = {}, double instructions = 0,
                 bool with_step = true);
  void add_use(int id, const TaskUse& use);
  // Appends a step on its own (a set whose steps do not follow its records' order).
  void add_step(int id, const TaskStep& step);
  // Gives back the room the arrays grew into (a loader calls it once the set is complete).
  void shrink_to_fit();

 private:
  template <class T>
  static Span<const T> view(const std::vector<T>& array, TaskList list) {
    return {array.data() + list.first, list.count};
  }
  template <class T>
  static Span<T> view(std::vector<T>& array, TaskList list) {
    return {array.data() + list.first, list.count};
  }

  std::vector<TaskDependency> after_;
  std::vector<int> dependency_objects_;
  std::vector<int> children_;
  std::vector<SourceSite> spawn_sites_;  // one per element of children_
  std::vector<TaskUse> uses_;
  std::vector<TaskStep> steps_;
};

struct TraceHeader {
  std::string name;                         // application name
  std::string kind;                         // one of kKinds, or "dimemas"
  std::string path;                         // file or directory it was read from
  std::vector<int> threads;                 // threads of each task; size = number of tasks
  std::vector<Communicator> communicators;  // by id (readers sort them: sort_communicators)
  double mips = 0;                          // instructions per microsecond, for kInstructions
  std::vector<std::string> call_names;      // names of opaque calls (Record::event_value)
  std::vector<std::string> notes;           // e.g. "rank 2 truncated: killed by SIGSEGV"
  std::vector<int> truncated_tasks;         // tasks whose streams stop early (the run died)
  // Per task of a trace set: the dependency kinds its tasks mode found (its rank manifest's
  // `dependencies`, "raw+war"); "" where it does not say (no tasks, or an older set).
  std::vector<std::string> task_dependencies;
  // Kind "tasks": one per task (rank), and threads[R] = task_sets[R].instances.size() (thread
  // T of task R is instance T + 1). Empty for other kinds.
  std::vector<TaskSet> task_sets;

  std::string run;  // a trace set's run id (manifest `run`), or ""

  int tasks() const { return static_cast<int>(threads.size()); }
  // Binary search when the communicators are sorted by id (else a scan).
  const Communicator* communicator(int id) const;
  void sort_communicators();
  // Throws std::out_of_range when the trace has no stream for (task, thread).
  void check_stream(int task, int thread) const;
};

// The records of one thread, in order.
class RecordStream {
 public:
  virtual ~RecordStream() = default;
  // Fills `out` with the next record; false at the end of the stream. Throws FormatError.
  virtual bool next(Record& out) = 0;
  // file:line of the record last returned by next(), for reports.
  virtual std::string where() const = 0;
  // A cheap token for the record last returned, and the file:line of such a token later on.
  // where(mark) reads nothing that next() changes, so another thread may call it.
  virtual std::uint64_t mark() const = 0;
  virtual std::string where(std::uint64_t mark) const = 0;
  // Bytes of input consumed so far (for progress reports).
  virtual std::uint64_t bytes_read() const = 0;
};

// A place in a stream of a trace held in memory (Trace::cursor): 16 bytes, where a RecordStream
// is an object on the heap; a replay of millions of task instances keeps one per instance.
struct RecordCursor {
  std::uint64_t offset = 0;  // of the next record, in the trace's memory
  std::uint64_t mark = 0;    // RecordStream::mark() of the record last read (before the first:
                             // what mark() returns before the first next())
};

// One trace: a `.dim` file, or one kind of a trace set.
class Trace {
 public:
  virtual ~Trace() = default;
  virtual const TraceHeader& header() const = 0;
  // Opens an independent cursor on the records of (task, thread).
  virtual std::unique_ptr<RecordStream> open(int task, int thread) const = 0;
  // Total input bytes of all streams (for progress reports).
  virtual std::uint64_t size_bytes() const = 0;
  // A trace held in memory (the tasks kind's) can also be read through RecordCursors: the
  // start of the stream of (task, thread) (none: this trace cannot), and next(), which reads
  // the record at `at` into `out` and moves `at` past it (false at the end of the stream, `at`
  // unchanged). open(task, thread)->where(mark) says where a record read so is.
  virtual std::optional<RecordCursor> cursor(int /*task*/, int /*thread*/) const {
    return std::nullopt;
  }
  virtual bool next(int /*task*/, RecordCursor& /*at*/, Record& /*out*/) const { return false; }
};

// For each instance of `set` (by index), the longest path from its start to the end of the
// run: over the points of every instance (start, its steps, end), along each instance's own
// instructions (weighing `seconds_per_instruction` each) and the spawn (spawn point -> child's
// start) and after (source's end -> after point) edges. The critical path of the rank is the
// main instance's. With `type_speedup` (one factor per type of `set`), the instructions of
// each type's instances weigh that many times less. Throws std::invalid_argument if the edges
// form a cycle (the loader of a trace set rejects such streams).
std::vector<double> task_critical_paths(const TaskSet& set, double seconds_per_instruction,
                                        const std::vector<double>& type_speedup = {});

// The critical paths of every rank of a tasks trace (one vector per rank, as above), over the
// ranks' graphs joined by their messages: from the point of a send in its instance to the
// point of its receive (a blocking receive, or the wait of an immediate one) in the receiving
// instance, paired per channel in the order each rank issued them in the traced run, so that
// a send's path holds the work its message enables on other ranks. Collectives join nothing.
// When the messages cannot be paired (a channel with more sends than receives, a receive from
// no rank, a cycle), each rank's paths are its own and `note` says why. `seconds_per_instruction`
// and `type_speedups` (may be empty) are per rank.
struct CriticalPaths {
  std::vector<std::vector<double>> paths;
  std::string note;
};
CriticalPaths task_critical_paths(const Trace& trace,
                                  const std::vector<double>& seconds_per_instruction,
                                  const std::vector<std::vector<double>>& type_speedups = {});

// The files of the trace set in `dir` (tracefmt/set_layout.h names them): the set's manifest,
// rank R's manifest, its stream of KIND, its production/consumption patterns, its task graph
// and report (with an extension: dot, svg, png; txt, json), its producer->consumer and thread
// communication recordings, and the directory of the replays kept in the set.
namespace set_files {
std::string manifest(const std::string& dir);
std::string rank_manifest(const std::string& dir, int rank);
std::string stream(const std::string& dir, const std::string& kind, int rank);
std::string patterns(const std::string& dir, int rank);
std::string taskgraph(const std::string& dir, int rank, const std::string& extension);
std::string taskreport(const std::string& dir, int rank, const std::string& extension);
std::string comm(const std::string& dir, int rank);
std::string thread_comm(const std::string& dir, int rank);
std::string replays(const std::string& dir);
}  // namespace set_files

// The manifest of a trace set (DIR/manifest.toml; docs/trace-format.md), checked.
struct SetManifest {
  std::string path;  // of manifest.toml
  int version = 0;
  std::string name;
  int ranks = 0;
  double mips = 0;
  std::vector<std::string> kinds;
  std::string run;  // id of the run that wrote the set; "" for sets without one
};
// Throws FormatError. `later_versions`: a reader that only needs the ranks and the run (they
// keep their meaning) accepts versions past the one it knows, without mips or kinds.
SetManifest read_set_manifest(const std::string& dir, bool later_versions = false);
// The run a replay kept in a trace set is of: the "run" of its summary SET/replay/KIND.json
// (which `replay` writes), "" when it has none or cannot be read.
std::string saved_replay_run(const std::string& json_path);
bool is_trace_set(const std::string& path);  // a directory with a manifest.toml
// What rank `rank`'s manifest in trace set `dir` says of its recording, as open_traces adds it to
// a trace's notes ("rank 0: calls of f after the first 20000 are ...", truncation). Throws
// FormatError.
std::vector<std::string> rank_notes(const std::string& dir, int rank);

// What open_traces may leave out of the traces it opens.
struct OpenOptions {
  // The uses of task instances (`uses` lines, checked all the same): only the analyses of a task
  // decomposition read them, not a replay, and they take about 70 bytes per instance.
  bool task_uses = true;
};

// Opens a `.dim` file, or every trace of a trace set directory (all kinds present when `kinds`
// is empty). Throws FormatError when the input is malformed.
std::vector<std::unique_ptr<Trace>> open_traces(const std::string& path,
                                                const std::vector<std::string>& kinds = {},
                                                const OpenOptions& options = {});
std::unique_ptr<Trace> open_dimemas(const std::string& path);

// The same trace, with its streams read and parsed ahead by a background thread (so that a
// replay parses on one core and simulates on another). Memory stays bounded: each stream reads
// ahead at most a few thousand records. A tasks trace (held in memory), and one of more than
// 4096 streams (whose rings would not fit the budget), are returned as they are.
std::unique_ptr<Trace> prefetch(std::unique_ptr<Trace> trace);

// Writes a trace one stream at a time: begin(task, thread), records, ..., then finish().
class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  virtual void begin(int task, int thread) = 0;
  virtual void write(const Record& record) = 0;
  virtual void finish() = 0;
};

// Dimemas 5 `.dim` writer (with offsets, as Dimemas expects). Instruction bursts are turned into
// seconds with header.mips.
std::unique_ptr<TraceWriter> make_dimemas_writer(const std::string& path,
                                                 const TraceHeader& header);
// Native trace-set writer: creates `dir` (if needed) and writes the manifest and the streams of
// `header.kind`. Bursts in seconds are turned into instructions with header.mips.
std::unique_ptr<TraceWriter> make_native_writer(const std::string& dir, const TraceHeader& header);

// Copies every stream of `trace` into `writer`.
void copy_trace(const Trace& trace, TraceWriter& writer);

// What a validation found, each as "file:line: what": problems a replay would trip over, and
// notes on what it leaves over (messages nothing receives, receives that may wait for nothing),
// which a replay ends with, as the program did.
struct Validation {
  std::vector<std::string> problems, notes;
};

// Reads every record of every stream and checks it against the header (peers, communicators,
// sizes, matching waits); stops after `max_problems` problems (and as many notes).
Validation validate(const Trace& trace, std::size_t max_problems = 100);

// ---- Paraver (.prv / .pcf / .row) ---------------------------------------------------------

struct ParaverState {
  int value;
  std::string name;
  int red, green, blue;
};

struct ParaverEventType {
  std::uint64_t type;
  std::string name;
  std::vector<std::pair<std::uint64_t, std::string>> values;
};

// The resources and processes a Paraver trace describes. Ids are 0-based here; the files are
// 1-based as Paraver wants.
struct ParaverLayout {
  std::string application;
  std::vector<int> cpus_per_node;
  std::vector<std::string> node_names;  // optional; "node N" by default
  std::vector<int> task_node;           // node of each task
  std::vector<int> threads;             // threads of each task
  // Optional names of the threads of each task in the .row ("rank T.N" by default).
  std::vector<std::vector<std::string>> thread_names;
  std::vector<Communicator> communicators;
  std::vector<ParaverState> states;  // .pcf STATES
  std::vector<ParaverEventType> event_types;
};

struct ParaverCommunication {
  int send_cpu, send_task, send_thread;
  std::uint64_t logical_send, physical_send;
  int recv_cpu, recv_task, recv_thread;
  std::uint64_t logical_recv, physical_recv;
  std::int64_t size;
  std::int64_t tag;
};

// Writes a Paraver trace. Records may be given in any order: they are sorted (by time, then
// task, thread, and events before states before communications) with bounded memory, spilling
// sorted runs to temporary files when needed. Times are in nanoseconds; `cpu` -1 = none.
// While writing, PATH.body holds the records; finish() puts the header in front of them.
class ParaverWriter {
 public:
  ParaverWriter(const std::string& prv_path, ParaverLayout layout);
  ~ParaverWriter();
  ParaverWriter(const ParaverWriter&) = delete;
  ParaverWriter& operator=(const ParaverWriter&) = delete;

  void state(int cpu, int task, int thread, std::uint64_t begin, std::uint64_t end, int value);
  void event(int cpu, int task, int thread, std::uint64_t time, std::uint64_t type,
             std::uint64_t value);
  // A call: the event (type, value) at `begin` and (type, 0) at `end`, as Extrae writes one.
  void call(int cpu, int task, int thread, std::uint64_t begin, std::uint64_t end,
            std::uint64_t type, std::uint64_t value);
  void communication(const ParaverCommunication& c);
  // A promise: no record given from now on starts before `time`. Lets the writer write what
  // is final and forget it; without promises, records wait (on disk if many) until finish().
  void flush_before(std::uint64_t time);
  // Before finish(): fewer threads for task `task` than the layout said (e.g. only the rows
  // that were used); no record may name one of the threads dropped.
  void shrink_threads(int task, int threads);
  // Writes the .prv (duration `end_time`), .pcf and .row files.
  void finish(std::uint64_t end_time);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Paraver's standard states (the Dimemas numbering, 0..29) with their usual colours.
const std::vector<ParaverState>& paraver_states();

// Extrae's MPI event types (point-to-point, collective, other) with their values' names.
std::vector<ParaverEventType> paraver_mpi_event_types();

// The Extrae event type and value of an MPI call ("MPI_Send" -> 50000001, 1); {0, 0} if the
// call is unknown.
std::pair<std::uint64_t, std::uint64_t> paraver_mpi_event(std::string_view call);

}  // namespace tareador::trace
