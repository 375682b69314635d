// The `tasks` kind of a trace set (docs/trace-format.md, "The tasks stream"): each rank's
// stream is loaded into memory (its sections come in the order instances ended, not the order
// they run), checked against the structural rules of the format, and turned into the task model
// of the header (TaskSet) plus one record stream per task instance (thread T of task R =
// instance T + 1 of rank R). Nothing is allocated per instance: the model's lists are flat
// arrays of the set, and the records are encoded in one buffer per rank (RecordCode), each
// instance's records contiguous, so a stream of millions of instances loads in seconds.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "tareador/trace.h"
#include "tracefmt/fields.h"
#include "tracefmt/line_reader.h"
#include "tracefmt/native_records.h"
#include "tracefmt/record_code.h"
#include "tracefmt/step_graph.h"

namespace tareador::trace {

namespace {

// The instances a truncated stream may lack the sections of (docs/trace-format.md, "Limits").
constexpr std::size_t kMaxMissingSections = 1 << 16;

// The records of a rank's instances, encoded: instance i's from code[begin[i]] to the next
// RecordCode::kEnd. The code starts with one, where instances without records begin.
struct RankRecords {
  std::vector<std::uint8_t> code{RecordCode::kEnd};
  std::vector<std::uint64_t> begin;
};

// Reads the record at `at` of `code`, if it is not the end of its stream; `bytes` grows by the
// length of its line.
bool read_record(const std::vector<std::uint8_t>& code, RecordCursor& at, Record& out,
                 std::uint64_t& bytes) {
  const std::uint8_t* next = code.data() + at.offset;
  if (*next == RecordCode::kEnd) return false;
  std::uint64_t line_bytes = 0;
  RecordCode::read(next, out, at.mark, line_bytes);
  at.offset = static_cast<std::uint64_t>(next - code.data());
  bytes += line_bytes;
  return true;
}

class TasksStream final : public RecordStream {
 public:
  TasksStream(const std::string& path, const std::vector<std::uint8_t>& code, RecordCursor start)
      : path_(path), code_(code), at_(start) {}

  bool next(Record& out) override { return read_record(code_, at_, out, read_); }

  std::string where() const override { return where(mark()); }
  // The line of the record last returned; before the first, the instance's `task` line.
  std::uint64_t mark() const override { return at_.mark; }
  std::string where(std::uint64_t mark) const override {
    return path_ + (mark ? ":" + std::to_string(mark) : std::string());
  }
  std::uint64_t bytes_read() const override { return read_; }

 private:
  const std::string& path_;
  const std::vector<std::uint8_t>& code_;
  RecordCursor at_;
  std::uint64_t read_ = 0;
};

class TasksTrace final : public Trace {
 public:
  TasksTrace(TraceHeader header, std::vector<RankRecords> records, std::uint64_t size)
      : header_(std::move(header)), records_(std::move(records)), size_(size) {}

  const TraceHeader& header() const override { return header_; }

  std::unique_ptr<RecordStream> open(int task, int thread) const override {
    RecordCursor start = *cursor(task, thread);
    return std::make_unique<TasksStream>(header_.task_sets[static_cast<std::size_t>(task)].path,
                                         records_[static_cast<std::size_t>(task)].code, start);
  }

  std::uint64_t size_bytes() const override { return size_; }

  // The mark of a record is its line (the cursor's start: the instance's `task` line).
  std::optional<RecordCursor> cursor(int task, int thread) const override {
    header_.check_stream(task, thread);
    const TaskSet& set = header_.task_sets[static_cast<std::size_t>(task)];
    return RecordCursor{
        records_[static_cast<std::size_t>(task)].begin[static_cast<std::size_t>(thread)],
        set.instances[static_cast<std::size_t>(thread)].line};
  }
  bool next(int task, RecordCursor& at, Record& out) const override {
    std::uint64_t bytes = 0;
    return read_record(records_[static_cast<std::size_t>(task)].code, at, out, bytes);
  }

 private:
  TraceHeader header_;
  std::vector<RankRecords> records_;  // per task
  std::uint64_t size_;
};

bool is_mpi(RecordType type) {
  return type == RecordType::Send || type == RecordType::Recv || type == RecordType::Wait ||
         type == RecordType::GlobalOp;
}

// Loads and checks the tasks stream of one rank.
class RankLoader {
 public:
  RankLoader(const StreamFile& stream, const TraceHeader& header, const CallIndex& calls, int rank,
             bool truncated, bool keep_uses, TaskSet& set, RankRecords& records)
      : file_(stream.file),
        lines_(file_, 0, stream.end, 1),
        parser_(header, calls, rank, false),
        rank_(rank),
        truncated_(truncated),
        keep_uses_(keep_uses),
        // A complete stream has a `task` line per instance; a truncated one lacks at most
        // kMaxMissingSections of them: no valid instance id is larger.
        max_id_(std::min<std::uint64_t>(kMaxStreams, stream.end + kMaxMissingSections)),
        set_(set),
        records_(records) {}

  std::uint64_t size() const { return file_->size(); }

  // Fills the set and the records (where each instance's begin); notes go to `notes`.
  void load(std::vector<std::string>& notes) {
    set_.path = file_->path();
    std::string_view line;
    while (lines_.next(line)) {
      if (line.empty() || line.front() == '#') continue;
      if (parser_.ended()) fail("record after 'end'");
      Fields f(line, ' ', lines_);
      std::string_view op = f.text("record");
      if (op == "object") {
        object(f);
      } else if (op == "task") {
        begin_section(f);
      } else if (op == "endtask") {
        f.expect_end("endtask");
        if (current_ == 0) fail("'endtask' outside a task section");
        records_.code.push_back(RecordCode::kEnd);
        current_ = 0;
      } else if (op == "after") {
        after(f);
      } else if (op == "spawn") {
        spawn(f);
      } else if (op == "uses") {
        uses(f);
      } else {
        record(line, op);
      }
    }
    if (current_ != 0) {
      if (!truncated_)
        fail("the section of instance " + std::to_string(current_) + " (line " +
             std::to_string(set_.instance(current_).line) + ") is not closed ('endtask')");
      // A rank that died while writing a section: what it wrote of it is not usable.
      notes.push_back("rank " + std::to_string(rank_) + ": the unfinished section of instance " +
                      std::to_string(current_) + " is ignored (truncated stream)");
      drop_section(current_);
      current_ = 0;
    }
    if (!parser_.ended() && !truncated_)
      fail("the stream stops without its 'end' line, but rank-" + std::to_string(rank_) +
           ".toml says the rank completed");
    finish(notes);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(file_->path(), lines_.line_number(), message);
  }
  [[noreturn]] void fail_at(std::uint64_t line, const std::string& message) const {
    throw FormatError(file_->path(), line, message);
  }

  bool has_section(int id) const {
    return id >= 1 && static_cast<std::size_t>(id) <= set_.instances.size() &&
           set_.instance(id).id != 0;
  }
  std::uint64_t& begin(int id) { return records_.begin[static_cast<std::size_t>(id - 1)]; }
  // The instance that spawns `child`, 0 if none does (or it is too large to be valid).
  int spawner(int child) const {
    return static_cast<std::size_t>(child) < spawn_parent_.size()
               ? spawn_parent_[static_cast<std::size_t>(child)]
               : 0;
  }

  TaskInstance& in_section(std::string_view what) {
    if (current_ == 0) fail(excerpt(what) + " outside a task section (no 'task' line before it)");
    return set_.instance(current_);
  }

  int object_id(Fields& f, const char* name) {
    int id = f.integer<int>(name);
    if (object_line_.find(id) == object_line_.end())
      f.fail("unknown object " + std::to_string(id) + " (no 'object " + std::to_string(id) +
             "' line before)");
    return id;
  }
  void object(Fields& f) {
    TaskObject o;
    o.id = f.integer<int>("object id");
    if (o.id <= 0) f.fail("object ids are positive numbers");
    o.kind = std::string(f.text("kind"));
    if (std::find(std::begin(kObjectKinds), std::end(kObjectKinds), o.kind) ==
        std::end(kObjectKinds))
      f.fail("unknown object kind " + excerpt(o.kind) +
             " (heap, global, stack, const, library or other)");
    o.size = f.count<std::int64_t>("size");
    o.name = f.name("name");
    f.expect_end("object");
    auto [it, fresh] = object_line_.emplace(o.id, lines_.line_number());
    if (!fresh)
      f.fail("object " + std::to_string(o.id) + " is declared twice (first at line " +
             std::to_string(it->second) + ")");
    object_index_.emplace(o.id, objects_.size());
    objects_.push_back(std::move(o));
  }

  void begin_section(Fields& f) {
    if (current_ != 0)
      f.fail("the section of instance " + std::to_string(current_) + " (line " +
             std::to_string(set_.instance(current_).line) +
             ") is not closed ('endtask') before this 'task'");
    TaskInstance in;
    in.id = f.integer<int>("instance id");
    in.type = intern_type(f.name("type"));
    in.parent = f.integer<int>("parent");
    if (!f.done()) {
      in.start_site = site(f, "start site");
      in.end_site = site(f, "end site");
    }
    f.expect_end("task");
    if (in.id <= 0) f.fail("instance ids start at 1");
    if (in.id == 1 && in.parent != 0) f.fail("instance 1 is the main task: its parent must be 0");
    if (in.id > 1 && (in.parent < 1 || in.parent >= in.id))
      f.fail("the parent of instance " + std::to_string(in.id) +
             " must be an instance with a "
             "smaller number, not " +
             std::to_string(in.parent));
    if (static_cast<std::uint64_t>(in.id) > max_id_)
      f.fail("instance " + std::to_string(in.id) +
             " is beyond what this stream can hold (at most " + std::to_string(max_id_) +
             " instances)");
    if (has_section(in.id))
      f.fail("duplicate section: instance " + std::to_string(in.id) + " already has one (line " +
             std::to_string(set_.instance(in.id).line) + ")");
    in.line = lines_.line_number();
    set_.add_instance(in);
    if (records_.begin.size() < set_.instances.size()) records_.begin.resize(set_.instances.size());
    begin(in.id) = records_.code.size();
    ++sections_;
    if (in.id > last_section_) last_section_ = in.id;
    current_ = in.id;
    since_step_ = 0;
    code_line_ = in.line;
  }

  // Types are numbered in order of first appearance in the stream here, by instance at the end.
  int intern_type(std::string name) {
    auto [it, fresh] = type_index_.emplace(std::move(name), static_cast<int>(type_names_.size()));
    if (fresh) type_names_.push_back(it->first);
    return it->second;
  }

  void after(Fields& f) {
    TaskInstance& in = in_section("after");
    TaskDependency d;
    d.from = f.integer<int>("source instance");
    if (d.from <= 0) f.fail("instance ids start at 1");
    if (d.from == in.id) f.fail("instance " + std::to_string(d.from) + " depends on itself");
    std::string_view kinds = f.text("kinds");
    while (!kinds.empty()) {
      std::size_t plus = kinds.find('+');
      std::string_view kind = kinds.substr(0, plus);
      if (kind == "raw") d.kinds |= kRaw;
      else if (kind == "war") d.kinds |= kWar;
      else if (kind == "waw") d.kinds |= kWaw;
      else f.fail("unknown dependency kind " + excerpt(kind) + " (raw, war, waw, joined with +)");
      if (plus == std::string_view::npos) break;
      kinds.remove_prefix(plus + 1);
      if (kinds.empty()) f.fail("dependency kinds end with '+'");
    }
    if (d.kinds == 0) f.fail("missing dependency kind");
    d.bytes = f.count<std::int64_t>("bytes");
    std::string_view objects = f.text("objects");
    if (!f.done()) d.site = site(f, "site");
    f.expect_end("after");
    object_ids_.clear();
    while (true) {
      std::size_t comma = objects.find(',');
      std::string_view item = objects.substr(0, comma);
      int id = 0;
      auto [stop, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
      if (ec != std::errc() || stop != item.data() + item.size() || item.empty())
        f.fail("object list " + excerpt(objects) + " is not comma-separated object ids");
      if (object_line_.find(id) == object_line_.end())
        f.fail("unknown object " + std::to_string(id) + " (no 'object " + std::to_string(id) +
               "' line before)");
      object_ids_.push_back(id);
      if (comma == std::string_view::npos) break;
      objects.remove_prefix(comma + 1);
    }
    Record r;
    r.type = RecordType::After;
    r.peer = d.from;
    r.op = d.kinds;
    r.bytes = d.bytes;
    add(r);
    after_lines_.push_back(lines_.line_number());
    set_.add_after(in.id, d, object_ids_, since_step_);
    since_step_ = 0;
  }

  void spawn(Fields& f) {
    TaskInstance& in = in_section("spawn");
    int child = f.integer<int>("child instance");
    SourceSite where = f.done() ? SourceSite{} : site(f, "site");
    f.expect_end("spawn");
    if (child <= 1)
      f.fail("instance " + std::to_string(child) + " cannot be spawned (instances 2, 3, ... are)");
    if (child == in.id) f.fail("instance " + std::to_string(child) + " spawns itself");
    // Instances are numbered in creation order, so parents come first: a parent chain never
    // loops (a truncated stream's missing sections take their parent from the spawn).
    if (child < in.id)
      f.fail("instance " + std::to_string(in.id) + " spawns instance " + std::to_string(child) +
             ", which has a smaller number (children are numbered after "
             "their parent)");
    if (child > last_spawn_) {
      last_spawn_ = child;
      last_spawn_line_ = lines_.line_number();
    }
    // A child past max_id_ makes the stream invalid (finish says why): it is not indexed.
    if (static_cast<std::uint64_t>(child) <= max_id_) {
      auto c = static_cast<std::size_t>(child);
      if (spawn_parent_.size() <= c) {
        spawn_parent_.resize(c + 1, 0);
        spawn_line_.resize(c + 1, 0);
      }
      if (spawn_parent_[c] != 0)
        f.fail("instance " + std::to_string(child) + " is spawned twice (first at line " +
               std::to_string(spawn_line_[c]) + ")");
      spawn_parent_[c] = in.id;
      spawn_line_[c] = lines_.line_number();
    }
    Record r;
    r.type = RecordType::Spawn;
    r.peer = child;
    add(r);
    set_.add_spawn(in.id, child, where, since_step_);
    since_step_ = 0;
  }
  // FILE:LINE (the file interned in source_files_), or `-` for a place the run did not know.
  SourceSite site(Fields& f, const char* name) {
    std::string text = f.name(name);
    if (text == "-") return {};
    std::size_t colon = text.rfind(':');
    int line = 0;
    const char* digits = text.data() + colon + 1;
    const char* end = text.data() + text.size();
    if (colon == std::string::npos || colon == 0 || std::from_chars(digits, end, line).ptr != end ||
        line <= 0)
      f.fail("field '" + std::string(name) + "' " + excerpt(text) +
             " is not FILE:LINE (a line from 1) or '-'");
    text.resize(colon);
    auto [it, fresh] = source_file_index_.emplace(text, static_cast<int>(source_files_.size()));
    if (fresh) source_files_.push_back(std::move(text));
    return SourceSite{it->second, line};
  }
  void uses(Fields& f) {
    int id = in_section("uses").id;
    TaskUse u;
    u.object = object_id(f, "object");
    u.read = f.count<std::int64_t>("read bytes");
    u.written = f.count<std::int64_t>("written bytes");
    std::string_view flag = f.done() ? std::string_view() : f.text("flag");
    if (flag == "disabled") {
      u.disabled = true;
      flag = f.done() ? std::string_view() : f.text("flag");
    }
    if (flag == "local") {
      u.local = true;
      flag = f.done() ? std::string_view() : f.text("flag");
    }
    if (flag == "outer") {
      TaskObject& o = objects_[object_index_.at(u.object)];
      if (o.kind != "stack")
        f.fail("'outer' on a " + o.kind + " object (only a stack object lies in a caller's frame)");
      u.outer = true;
      o.caller = true;
      flag = f.done() ? std::string_view() : f.text("span");
    }
    if (!flag.empty()) span(f, flag, u);
    f.expect_end("uses");
    if (keep_uses_) set_.add_use(id, u);
  }

  // `span FIRST END` of a `uses`: offsets within the object, FIRST < END <= its size.
  void span(Fields& f, std::string_view word, TaskUse& u) {
    if (word != "span")
      f.fail(
          "after the byte counts 'uses' takes 'disabled', 'local', 'outer' and 'span FIRST END'");
    u.span_first = f.count<std::int64_t>("span first");
    u.span_end = f.count<std::int64_t>("span end");
    const TaskObject& o = objects_[object_index_.at(u.object)];
    if (u.span_first >= u.span_end || u.span_end > o.size)
      f.fail("span " + std::to_string(u.span_first) + " " + std::to_string(u.span_end) +
             " is not a range of offsets within object " + std::to_string(u.object) + " (" +
             std::to_string(o.size) + " bytes)");
  }

  // A record of the authentic grammar (cpu, MPI, event, call) or `end`.
  void record(std::string_view line, std::string_view op) {
    if (op == "end") {
      if (current_ != 0)
        fail("the section of instance " + std::to_string(current_) + " (line " +
             std::to_string(set_.instance(current_).line) +
             ") is not closed ('endtask') before 'end'");
      Record r;
      parser_.parse(line, lines_, r);
      return;
    }
    TaskInstance& in = in_section(op);
    Record r;
    parser_.parse(line, lines_, r);
    std::uint64_t here = lines_.line_number();
    if ((r.type == RecordType::Send || r.type == RecordType::Recv ||
         r.type == RecordType::GlobalOp) &&
        r.immediate() && r.request != 0) {
      auto [it, fresh] = posted_.emplace(r.request, here);
      if (!fresh)
        fail("request " + std::to_string(r.request) + " is posted twice (first at line " +
             std::to_string(it->second) + "); in a tasks stream request ids are unique");
    }
    do {
      if (r.type == RecordType::Wait) waits_.emplace_back(r.request, here);
      if (r.type == RecordType::Burst) {
        in.instructions += r.amount;
        since_step_ += r.amount;
      }
      if (is_mpi(r.type)) in.mpi = true;
      add(r);
    } while (parser_.pending(r));
  }

  // Appends a record of the current section, read at the line just read.
  void add(const Record& r) {
    RecordCode::append(records_.code, r, lines_.line_number(), lines_.bytes_read() - last_bytes_,
                       code_line_);
    last_bytes_ = lines_.bytes_read();
  }

  // Forgets the section of `id` (unfinished in a truncated stream): the instance has none. Its
  // spawns stay known, as the records that name its children.
  void drop_section(int id) {
    records_.code.resize(begin(id));
    begin(id) = 0;
    set_.instance(id) = TaskInstance{};
    --sections_;
    while (last_section_ > 0 && !has_section(last_section_)) --last_section_;
  }

  // The checks that need the whole stream, then the model.
  void finish(std::vector<std::string>& notes) {
    check_waits();
    int count = instance_count();
    std::vector<int> synthetic = add_missing_sections(count);
    check_dependencies_exist(count);
    check_spawns(count);
    check_no_ancestor_dependency();
    note_synthetic(synthetic, notes);
    build_model();
  }
  // Every wait is for a request the stream posts, once.
  void check_waits() {
    std::map<std::uint64_t, std::uint64_t> waited;  // request -> line of its wait
    for (const auto& [request, line] : waits_) {
      if (posted_.find(request) == posted_.end())
        fail_at(line, "wait for request " + std::to_string(request) +
                          ", which no isend or irecv of the stream posts");
      auto [it, fresh] = waited.emplace(request, line);
      if (!fresh)
        fail_at(line, "request " + std::to_string(request) +
                          " is waited for twice (first at line " + std::to_string(it->second) +
                          ")");
    }
  }

  // The number of instances: the highest section, or spawn, named (at least the main task).
  int instance_count() {
    int count = last_section_;
    std::uint64_t count_line = count ? set_.instance(count).line : 0;
    if (last_spawn_ > count) {
      count = last_spawn_;
      count_line = last_spawn_line_;
    }
    if (truncated_) count = std::max(count, 1);
    if (count == 0)
      fail_at(0, "the stream has no task section (instance 1, the main task, is missing)");
    // A truncated stream lacks the sections of the instances that had not ended (and of those
    // whose section was not written yet): replayed as empty, they are allocated one by one.
    std::size_t missing = static_cast<std::size_t>(count) - sections_;
    if (truncated_ && missing > kMaxMissingSections)
      fail_at(count_line, "instance " + std::to_string(count) + " is named here but " +
                              std::to_string(missing) +
                              " instances below it have no section (a truncated stream may lack "
                              "at most " +
                              std::to_string(kMaxMissingSections) + ")");
    return count;
  }

  // Instances without a section: an error, unless the stream is truncated; then they get empty
  // sections (returned, in order).
  std::vector<int> add_missing_sections(int count) {
    std::vector<int> synthetic;
    for (int id = 1; id <= count; ++id) {
      if (has_section(id)) continue;
      if (!truncated_) {
        if (spawner(id) != 0)
          fail_at(spawn_line_[static_cast<std::size_t>(id)],
                  "spawn of instance " + std::to_string(id) + ", which has no section");
        for_each_after([&](const TaskInstance&, const TaskDependency& d, std::uint64_t line) {
          if (d.from == id)
            fail_at(line, "after on instance " + std::to_string(id) + ", which has no section");
        });
        fail_at(0, "instances are numbered 1.." + std::to_string(count) + " but instance " +
                       std::to_string(id) + " has no section");
      }
      TaskInstance in;
      in.id = id;
      in.parent = id == 1 ? 0 : spawner(id) != 0 ? spawner(id) : 1;
      in.type = intern_type(id == 1 ? "main" : "(truncated)");
      set_.add_instance(in);
      synthetic.push_back(id);
    }
    // (A dropped unfinished section may have been the highest.)
    set_.instances.resize(static_cast<std::size_t>(count));
    records_.begin.resize(set_.instances.size());
    synthetic_.assign(set_.instances.size() + 1, false);
    for (int id : synthetic) synthetic_[static_cast<std::size_t>(id)] = true;
    return synthetic;
  }

  // f(instance, dependency, line of its `after`) for every dependency, by instance id.
  template <class F>
  void for_each_after(F f) const {
    for (const TaskInstance& in : set_.instances) {
      if (in.id == 0) continue;
      Span<const TaskDependency> after = set_.after(in);
      for (std::size_t k = 0; k < after.size(); ++k)
        f(in, after[k], after_lines_[in.after.first + k]);
    }
  }

  // Dependencies on instances that do not exist at all.
  void check_dependencies_exist(int count) {
    for_each_after([&](const TaskInstance&, const TaskDependency& d, std::uint64_t line) {
      if (d.from > count)
        fail_at(line, "after on instance " + std::to_string(d.from) + ", which has no section");
    });
  }

  // Every instance but the main one is spawned once, by its parent.
  void check_spawns(int count) {
    std::vector<std::pair<int, int>> unspawned;  // (parent, child)
    for (int id = 2; id <= count; ++id) {
      const TaskInstance& in = set_.instance(id);
      int by = spawner(id);
      if (by == 0) {
        if (!synthetic_[static_cast<std::size_t>(in.parent)])
          fail_at(in.line,
                  "instance " + std::to_string(id) + " is never spawned (its parent, instance " +
                      std::to_string(in.parent) + ", has no 'spawn " + std::to_string(id) + "')");
        unspawned.emplace_back(in.parent, id);
      } else if (by != in.parent) {
        fail_at(spawn_line_[static_cast<std::size_t>(id)],
                "instance " + std::to_string(by) + " spawns instance " + std::to_string(id) +
                    ", whose parent is instance " + std::to_string(in.parent));
      }
    }
    // Their parents' sections are missing from a truncated stream: the parents create them,
    // each parent's spawns one after the other (an instance's records are contiguous).
    std::stable_sort(unspawned.begin(), unspawned.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t k = 0; k < unspawned.size(); ++k) {
      auto [parent, child] = unspawned[k];
      if (k == 0 || unspawned[k - 1].first != parent) begin(parent) = records_.code.size();
      Record r;
      r.type = RecordType::Spawn;
      r.peer = child;
      std::uint64_t line = 0;
      RecordCode::append(records_.code, r, 0, 0, line);
      if (k + 1 == unspawned.size() || unspawned[k + 1].first != parent)
        records_.code.push_back(RecordCode::kEnd);
      set_.add_spawn(parent, child);
    }
  }

  // No dependency on an ancestor.
  void check_no_ancestor_dependency() const {
    for_each_after([&](const TaskInstance& in, const TaskDependency& d, std::uint64_t line) {
      for (int a = in.parent; a != 0; a = set_.instance(a).parent)
        if (a == d.from)
          fail_at(line, "instance " + std::to_string(in.id) + " depends on instance " +
                            std::to_string(a) + ", one of its ancestors");
    });
  }
  void note_synthetic(const std::vector<int>& synthetic, std::vector<std::string>& notes) const {
    if (!synthetic.empty()) {
      std::string ids;
      for (std::size_t i = 0; i < synthetic.size() && i < 10; ++i)
        ids += (i ? ", " : "") + std::to_string(synthetic[i]);
      if (synthetic.size() > 10) ids += ", ...";
      notes.push_back("rank " + std::to_string(rank_) + ": " + std::to_string(synthetic.size()) +
                      " task instance(s) without a section in the truncated stream (" + ids +
                      "), replayed as empty");
    }
  }

  // The model: types numbered in order of their first instance.
  void build_model() {
    std::vector<int> number(type_names_.size(), -1);
    for (TaskInstance& in : set_.instances) {
      int& n = number[static_cast<std::size_t>(in.type)];
      if (n < 0) {
        n = static_cast<int>(set_.types.size());
        set_.types.push_back(type_names_[static_cast<std::size_t>(in.type)]);
      }
      in.type = n;
    }
    set_.objects = std::move(objects_);
    set_.source_files = std::move(source_files_);
    set_.shrink_to_fit();
    records_.code.shrink_to_fit();
    records_.begin.shrink_to_fit();
    check_acyclic();
  }

  // The spawn and after edges make a DAG of points (the traced run was sequential); a cycle
  // would deadlock any replay.
  void check_acyclic() const {
    StepGraph g(set_);
    if (g.acyclic()) return;
    // Blame an `after` on the cycle: it waits for an instance that cannot end.
    for (std::size_t i = 0; i < set_.instances.size(); ++i) {
      const TaskInstance& in = set_.instances[i];
      Span<const TaskStep> steps = set_.steps(in);
      for (std::size_t k = 0; k < steps.size(); ++k) {
        if (steps[k].spawn || g.ordered(g.start(i) + 1 + static_cast<std::uint32_t>(k))) continue;
        auto index = static_cast<std::size_t>(steps[k].index);
        int source = set_.after(in)[index].from;
        if (g.ordered(g.end(static_cast<std::size_t>(source - 1)))) continue;
        fail_at(after_lines_[in.after.first + index],
                "dependency cycle: instance " + std::to_string(i + 1) + " waits for instance " +
                    std::to_string(source) + ", which cannot end before this point");
      }
    }
    fail_at(0, "the spawn and after records form a cycle");
  }

  std::shared_ptr<const SharedFile> file_;
  LineReader lines_;
  NativeRecordParser parser_;
  int rank_;
  bool truncated_;
  bool keep_uses_;
  std::uint64_t max_id_;  // no valid instance id is larger
  TaskSet& set_;          // instances placed by id as their sections come
  RankRecords& records_;
  int current_ = 0;              // the instance whose section is open, 0 for none
  double since_step_ = 0;        // its instructions since its last spawn or after
  std::uint64_t code_line_ = 0;  // the line of its last record (RecordCode)
  std::size_t sections_ = 0;     // instances with a section
  int last_section_ = 0;         // the highest of them
  int last_spawn_ = 0;           // the highest instance spawned, and where
  std::uint64_t last_spawn_line_ = 0;
  std::vector<int> spawn_parent_;           // per child id: who spawns it (0: nobody yet)
  std::vector<std::uint64_t> spawn_line_;   // and where
  std::vector<std::uint64_t> after_lines_;  // per dependency of the set: its line
  std::vector<bool> synthetic_;             // per id: no section in a truncated stream
  std::vector<int> object_ids_;             // of the `after` being read
  std::unordered_map<std::string, int> type_index_;
  std::vector<std::string> type_names_;  // in order of first appearance in the stream
  std::vector<TaskObject> objects_;
  std::unordered_map<int, std::uint64_t> object_line_;
  std::unordered_map<int, std::size_t> object_index_;  // id -> index into objects_
  std::vector<std::string> source_files_;
  std::unordered_map<std::string, int> source_file_index_;
  std::unordered_map<std::uint64_t, std::uint64_t> posted_;     // request -> line
  std::vector<std::pair<std::uint64_t, std::uint64_t>> waits_;  // (request, line)
  std::uint64_t last_bytes_ = 0;
};

}  // namespace

std::unique_ptr<Trace> open_tasks_trace(TraceHeader header,
                                        const std::vector<std::string>& stream_paths,
                                        const std::vector<bool>& truncated, bool uses) {
  std::vector<RankRecords> records(stream_paths.size());
  header.task_sets.assign(stream_paths.size(), TaskSet{});
  std::uint64_t size = 0;
  CallIndex calls = call_index(header);
  for (std::size_t rank = 0; rank < stream_paths.size(); ++rank) {
    RankLoader loader(
        open_rank_stream(stream_paths[rank], static_cast<int>(rank), truncated[rank], header.notes),
        header, calls, static_cast<int>(rank), truncated[rank], uses, header.task_sets[rank],
        records[rank]);
    loader.load(header.notes);
    size += loader.size();
    header.threads[rank] = static_cast<int>(header.task_sets[rank].instances.size());
  }
  return std::make_unique<TasksTrace>(std::move(header), std::move(records), size);
}

}  // namespace tareador::trace
