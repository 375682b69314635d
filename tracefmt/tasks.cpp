// The `tasks` kind of a trace set (docs/trace-format.md, "The tasks stream"): each rank's
// stream is loaded into memory (task traces are small next to MPI traces), checked against the
// structural rules of the format, and turned into the task model of the header (TaskSet) plus
// one record stream per task instance (thread T of task R = instance T + 1 of rank R).
#include <algorithm>
#include <map>
#include <unordered_map>

#include "tareador/trace.h"
#include "tracefmt/fields.h"
#include "tracefmt/line_reader.h"
#include "tracefmt/native_records.h"

namespace tareador::trace {

namespace {

// The instances a truncated stream may lack the sections of (docs/trace-format.md, "Limits").
constexpr std::size_t kMaxMissingSections = 1 << 16;

// The records of one instance, with the line each came from and its length (for progress).
struct InstanceRecords {
  std::vector<Record> records;
  std::vector<std::uint32_t> lines;
  std::vector<std::uint32_t> bytes;
  std::uint64_t task_line = 0;  // its `task` line (0 for an instance without a section)
};

class TasksStream final : public RecordStream {
 public:
  TasksStream(const std::string& path, const InstanceRecords& instance)
      : path_(path), instance_(instance) {}

  bool next(Record& out) override {
    if (at_ >= instance_.records.size()) return false;
    out = instance_.records[at_];
    read_ += instance_.bytes[at_];
    ++at_;
    return true;
  }

  std::string where() const override { return where(mark()); }
  std::uint64_t mark() const override {
    return at_ == 0 ? instance_.task_line : instance_.lines[at_ - 1];
  }
  std::string where(std::uint64_t mark) const override {
    return path_ + (mark ? ":" + std::to_string(mark) : std::string());
  }
  std::uint64_t bytes_read() const override { return read_; }

 private:
  const std::string& path_;
  const InstanceRecords& instance_;
  std::size_t at_ = 0;
  std::uint64_t read_ = 0;
};

class TasksTrace final : public Trace {
 public:
  TasksTrace(TraceHeader header, std::vector<std::vector<InstanceRecords>> records,
             std::uint64_t size)
      : header_(std::move(header)), records_(std::move(records)), size_(size) {}

  const TraceHeader& header() const override { return header_; }

  std::unique_ptr<RecordStream> open(int task, int thread) const override {
    header_.check_stream(task, thread);
    return std::make_unique<TasksStream>(
        header_.task_sets[static_cast<std::size_t>(task)].path,
        records_[static_cast<std::size_t>(task)][static_cast<std::size_t>(thread)]);
  }

  std::uint64_t size_bytes() const override { return size_; }

 private:
  TraceHeader header_;
  std::vector<std::vector<InstanceRecords>> records_;  // per task, per instance
  std::uint64_t size_;
};

// The points of every instance (start, steps, end) and the edges between them.
struct StepGraph {
  std::vector<std::size_t> first;  // each instance's start node; its steps follow, then its end
  std::vector<std::vector<std::pair<std::size_t, double>>> edges;  // to (node, instructions)
  std::vector<std::size_t> order;  // topological; shorter than the nodes when there is a cycle
  std::vector<int> pending;        // in-edges not yet ordered (> 0: on or after a cycle)

  std::size_t end(const std::vector<TaskInstance>& instances, std::size_t i) const {
    return first[i] + instances[i].steps.size() + 1;
  }
};

StepGraph step_graph(const std::vector<TaskInstance>& instances) {
  StepGraph g;
  std::size_t nodes = 0;
  for (const TaskInstance& inst : instances) {
    g.first.push_back(nodes);
    nodes += inst.steps.size() + 2;
  }
  g.edges.resize(nodes);
  g.pending.assign(nodes, 0);
  auto edge = [&](std::size_t from, std::size_t to, double instructions) {
    g.edges[from].emplace_back(to, instructions);
    ++g.pending[to];
  };
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const TaskInstance& inst = instances[i];
    double done = 0;
    for (std::size_t k = 0; k < inst.steps.size(); ++k) {
      const TaskStep& step = inst.steps[k];
      std::size_t node = g.first[i] + 1 + k;
      edge(node - 1, node, step.instructions);
      done += step.instructions;
      if (step.spawn) {
        int child = inst.children[static_cast<std::size_t>(step.index)];
        edge(node, g.first[static_cast<std::size_t>(child - 1)], 0);
      } else {
        int source = inst.after[static_cast<std::size_t>(step.index)].from;
        edge(g.end(instances, static_cast<std::size_t>(source - 1)), node, 0);
      }
    }
    std::size_t end = g.end(instances, i);
    edge(end - 1, end, std::max(0.0, inst.instructions - done));
  }
  std::vector<int> pending = g.pending;
  std::vector<std::size_t> ready;
  for (std::size_t v = 0; v < nodes; ++v)
    if (pending[v] == 0) ready.push_back(v);
  while (!ready.empty()) {
    std::size_t v = ready.back();
    ready.pop_back();
    g.order.push_back(v);
    for (const auto& [w, weight] : g.edges[v])
      if (--pending[w] == 0) ready.push_back(w);
  }
  g.pending = std::move(pending);
  return g;
}

bool is_mpi(RecordType type) {
  return type == RecordType::Send || type == RecordType::Recv || type == RecordType::Wait ||
         type == RecordType::GlobalOp;
}

// Loads and checks the tasks stream of one rank.
class RankLoader {
 public:
  RankLoader(const StreamFile& stream, const TraceHeader& header, const CallIndex& calls, int rank,
             bool truncated)
      : file_(stream.file),
        lines_(file_, 0, stream.end, 1),
        parser_(header, calls, rank, false),
        rank_(rank),
        truncated_(truncated) {}

  std::uint64_t size() const { return file_->size(); }

  // Fills `set` and `records` (one entry per instance); notes go to `notes`.
  void load(TaskSet& set, std::vector<InstanceRecords>& records, std::vector<std::string>& notes) {
    set.path = file_->path();
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
        if (current_ == nullptr) fail("'endtask' outside a task section");
        current_ = nullptr;
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
    if (current_ != nullptr) {
      if (!truncated_)
        fail("the section of instance " + std::to_string(current_->instance.id) + " (line " +
             std::to_string(current_->records.task_line) + ") is not closed ('endtask')");
      // A rank that died while writing a section: what it wrote of it is not usable.
      notes.push_back("rank " + std::to_string(rank_) + ": the unfinished section of instance " +
                      std::to_string(current_->instance.id) + " is ignored (truncated stream)");
      sections_.erase(current_->instance.id);
      current_ = nullptr;
    }
    if (!parser_.ended() && !truncated_)
      fail("the stream stops without its 'end' line, but rank-" + std::to_string(rank_) +
           ".toml says the rank completed");
    finish(set, records, notes);
  }

 private:
  struct Section {
    TaskInstance instance;
    InstanceRecords records;
    std::string type;
    std::vector<std::uint64_t> after_lines;  // line of each `after`
    double since_step = 0;                   // instructions since its last spawn or after
    bool synthetic = false;                  // no section in a truncated stream
  };

  struct Spawn {
    int parent;
    std::uint64_t line;
  };

  [[noreturn]] void fail(const std::string& message) const {
    throw FormatError(file_->path(), lines_.line_number(), message);
  }
  [[noreturn]] void fail_at(std::uint64_t line, const std::string& message) const {
    throw FormatError(file_->path(), line, message);
  }

  Section& in_section(std::string_view what) {
    if (current_ == nullptr)
      fail(excerpt(what) + " outside a task section (no 'task' line before it)");
    return *current_;
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
    if (current_ != nullptr)
      f.fail("the section of instance " + std::to_string(current_->instance.id) + " (line " +
             std::to_string(current_->records.task_line) +
             ") is not closed ('endtask') before this 'task'");
    int id = f.integer<int>("instance id");
    std::string type = f.name("type");
    int parent = f.integer<int>("parent");
    SourceSite start_site, end_site;
    if (!f.done()) {
      start_site = site(f, "start site");
      end_site = site(f, "end site");
    }
    f.expect_end("task");
    if (id <= 0) f.fail("instance ids start at 1");
    if (id == 1 && parent != 0) f.fail("instance 1 is the main task: its parent must be 0");
    if (id > 1 && (parent < 1 || parent >= id))
      f.fail("the parent of instance " + std::to_string(id) +
             " must be an instance with a "
             "smaller number, not " +
             std::to_string(parent));
    auto [it, fresh] = sections_.try_emplace(id);
    if (!fresh)
      f.fail("duplicate section: instance " + std::to_string(id) + " already has one (line " +
             std::to_string(it->second.records.task_line) + ")");
    Section& s = it->second;
    s.instance.id = id;
    s.instance.parent = parent;
    s.instance.start_site = start_site;
    s.instance.end_site = end_site;
    s.type = std::move(type);
    s.records.task_line = lines_.line_number();
    current_ = &s;
  }

  void after(Fields& f) {
    Section& s = in_section("after");
    TaskDependency d;
    d.from = f.integer<int>("source instance");
    if (d.from <= 0) f.fail("instance ids start at 1");
    if (d.from == s.instance.id)
      f.fail("instance " + std::to_string(d.from) + " depends on itself");
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
      d.objects.push_back(id);
      if (comma == std::string_view::npos) break;
      objects.remove_prefix(comma + 1);
    }
    Record r;
    r.type = RecordType::After;
    r.peer = d.from;
    r.op = d.kinds;
    r.bytes = d.bytes;
    add(s, r);
    s.after_lines.push_back(lines_.line_number());
    step(s, false, s.instance.after.size());
    s.instance.after.push_back(std::move(d));
  }

  void spawn(Fields& f) {
    Section& s = in_section("spawn");
    int child = f.integer<int>("child instance");
    SourceSite where = f.done() ? SourceSite{} : site(f, "site");
    f.expect_end("spawn");
    if (child <= 1)
      f.fail("instance " + std::to_string(child) + " cannot be spawned (instances 2, 3, ... are)");
    if (child == s.instance.id) f.fail("instance " + std::to_string(child) + " spawns itself");
    // Instances are numbered in creation order, so parents come first: a parent chain never
    // loops (a truncated stream's missing sections take their parent from the spawn).
    if (child < s.instance.id)
      f.fail("instance " + std::to_string(s.instance.id) + " spawns instance " +
             std::to_string(child) +
             ", which has a smaller number (children are numbered after "
             "their parent)");
    auto [it, fresh] = spawns_.emplace(child, Spawn{s.instance.id, lines_.line_number()});
    if (!fresh)
      f.fail("instance " + std::to_string(child) + " is spawned twice (first at line " +
             std::to_string(it->second.line) + ")");
    Record r;
    r.type = RecordType::Spawn;
    r.peer = child;
    add(s, r);
    step(s, true, s.instance.children.size());
    s.instance.children.push_back(child);
    s.instance.spawn_sites.push_back(where);
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

  static void step(Section& s, bool spawn, std::size_t index) {
    s.instance.steps.push_back(TaskStep{spawn, static_cast<int>(index), s.since_step});
    s.since_step = 0;
  }

  void uses(Fields& f) {
    Section& s = in_section("uses");
    TaskUse u;
    u.object = object_id(f, "object");
    u.read = f.count<std::int64_t>("read bytes");
    u.written = f.count<std::int64_t>("written bytes");
    if (!f.done()) {
      std::string_view flag = f.text("flag");
      if (flag == "disabled") {
        u.disabled = true;
        if (!f.done()) flag = f.text("span");
      }
      if (flag != "disabled") span(f, flag, u);
    }
    f.expect_end("uses");
    s.instance.uses.push_back(u);
  }

  // `span FIRST END` of a `uses`: offsets within the object, FIRST < END <= its size.
  void span(Fields& f, std::string_view word, TaskUse& u) {
    if (word != "span")
      f.fail("after the byte counts 'uses' takes 'disabled' and 'span FIRST END'");
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
      if (current_ != nullptr)
        fail("the section of instance " + std::to_string(current_->instance.id) + " (line " +
             std::to_string(current_->records.task_line) +
             ") is not closed ('endtask') before 'end'");
      Record r;
      parser_.parse(line, lines_, r);
      return;
    }
    Section& s = in_section(op);
    Record r;
    parser_.parse(line, lines_, r);
    std::uint64_t here = lines_.line_number();
    if ((r.type == RecordType::Send || r.type == RecordType::Recv) && r.immediate() &&
        r.request != 0) {
      auto [it, fresh] = posted_.emplace(r.request, here);
      if (!fresh)
        fail("request " + std::to_string(r.request) + " is posted twice (first at line " +
             std::to_string(it->second) + "); in a tasks stream request ids are unique");
    }
    do {
      if (r.type == RecordType::Wait) waits_.emplace_back(r.request, here);
      if (r.type == RecordType::Burst) {
        s.instance.instructions += r.amount;
        s.since_step += r.amount;
      }
      if (is_mpi(r.type)) s.instance.mpi = true;
      add(s, r);
    } while (parser_.pending(r));
  }

  void add(Section& s, const Record& r) {
    s.records.records.push_back(r);
    s.records.lines.push_back(static_cast<std::uint32_t>(lines_.line_number()));
    s.records.bytes.push_back(static_cast<std::uint32_t>(lines_.bytes_read() - last_bytes_));
    last_bytes_ = lines_.bytes_read();
  }

  // The checks that need the whole stream, then the model.
  void finish(TaskSet& set, std::vector<InstanceRecords>& records,
              std::vector<std::string>& notes) {
    check_waits();
    int count = instance_count();
    std::vector<int> synthetic = add_missing_sections(count);
    check_dependencies_exist(count);
    check_spawns();
    check_no_ancestor_dependency();
    note_synthetic(synthetic, notes);
    build_model(count, set, records);
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
    int count = sections_.empty() ? 0 : sections_.rbegin()->first;
    std::uint64_t count_line = sections_.empty() ? 0 : sections_.rbegin()->second.records.task_line;
    if (!spawns_.empty() && spawns_.rbegin()->first > count) {
      count = spawns_.rbegin()->first;
      count_line = spawns_.rbegin()->second.line;
    }
    if (truncated_) count = std::max(count, 1);
    if (count == 0)
      fail_at(0, "the stream has no task section (instance 1, the main task, is missing)");
    // A truncated stream lacks the sections of the instances that had not ended (and of those
    // whose section was not written yet): replayed as empty, they are allocated one by one.
    std::size_t missing = static_cast<std::size_t>(count) - sections_.size();
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
      if (sections_.count(id)) continue;
      if (!truncated_) {
        auto spawn = spawns_.find(id);
        if (spawn != spawns_.end())
          fail_at(spawn->second.line,
                  "spawn of instance " + std::to_string(id) + ", which has no section");
        for (const auto& [sid, s] : sections_)
          for (std::size_t i = 0; i < s.instance.after.size(); ++i)
            if (s.instance.after[i].from == id)
              fail_at(s.after_lines[i],
                      "after on instance " + std::to_string(id) + ", which has no section");
        fail_at(0, "instances are numbered 1.." + std::to_string(count) + " but instance " +
                       std::to_string(id) + " has no section");
      }
      Section& s = sections_[id];
      s.synthetic = true;
      s.instance.id = id;
      auto spawn = spawns_.find(id);
      s.instance.parent = id == 1 ? 0 : spawn != spawns_.end() ? spawn->second.parent : 1;
      s.type = id == 1 ? "main" : "(truncated)";
      synthetic.push_back(id);
    }
    return synthetic;
  }

  // Dependencies on instances that do not exist at all.
  void check_dependencies_exist(int count) {
    for (const auto& [id, s] : sections_)
      for (std::size_t i = 0; i < s.instance.after.size(); ++i)
        if (s.instance.after[i].from > count)
          fail_at(s.after_lines[i], "after on instance " +
                                        std::to_string(s.instance.after[i].from) +
                                        ", which has no section");
  }

  // Every instance but the main one is spawned once, by its parent.
  void check_spawns() {
    for (auto& [id, s] : sections_) {
      if (id == 1) continue;
      auto spawn = spawns_.find(id);
      if (spawn == spawns_.end()) {
        Section& parent = sections_[s.instance.parent];
        if (!parent.synthetic)
          fail_at(s.records.task_line, "instance " + std::to_string(id) +
                                           " is never spawned (its parent, instance " +
                                           std::to_string(s.instance.parent) + ", has no 'spawn " +
                                           std::to_string(id) + "')");
        // Its parent's section is missing from a truncated stream: the parent creates it.
        Record r;
        r.type = RecordType::Spawn;
        r.peer = id;
        parent.records.records.push_back(r);
        parent.records.lines.push_back(0);
        parent.records.bytes.push_back(0);
        step(parent, true, parent.instance.children.size());
        parent.instance.children.push_back(id);
        parent.instance.spawn_sites.emplace_back();
      } else if (spawn->second.parent != s.instance.parent) {
        fail_at(spawn->second.line, "instance " + std::to_string(spawn->second.parent) +
                                        " spawns instance " + std::to_string(id) +
                                        ", whose parent is instance " +
                                        std::to_string(s.instance.parent));
      }
    }
  }

  // No dependency on an ancestor.
  void check_no_ancestor_dependency() {
    for (const auto& [id, s] : sections_)
      for (std::size_t i = 0; i < s.instance.after.size(); ++i)
        for (int a = s.instance.parent; a != 0; a = sections_[a].instance.parent)
          if (a == s.instance.after[i].from)
            fail_at(s.after_lines[i], "instance " + std::to_string(id) + " depends on instance " +
                                          std::to_string(a) + ", one of its ancestors");
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
  void build_model(int count, TaskSet& set, std::vector<InstanceRecords>& records) {
    std::map<std::string, int> type_index;
    set.objects = std::move(objects_);
    set.source_files = std::move(source_files_);
    records.clear();
    std::vector<std::vector<std::uint64_t>> after_lines;
    for (int id = 1; id <= count; ++id) {
      Section& s = sections_[id];
      auto [it, fresh] = type_index.emplace(s.type, static_cast<int>(set.types.size()));
      if (fresh) set.types.push_back(s.type);
      s.instance.type = it->second;
      s.instance.line = s.records.task_line;
      set.instances.push_back(std::move(s.instance));
      records.push_back(std::move(s.records));
      after_lines.push_back(std::move(s.after_lines));
    }
    check_acyclic(set.instances, after_lines);
  }

  // The spawn and after edges make a DAG of points (the traced run was sequential); a cycle
  // would deadlock any replay.
  void check_acyclic(const std::vector<TaskInstance>& instances,
                     const std::vector<std::vector<std::uint64_t>>& after_lines) {
    StepGraph g = step_graph(instances);
    if (g.order.size() == g.edges.size()) return;
    // Blame an `after` on the cycle: it waits for an instance that cannot end.
    for (std::size_t i = 0; i < instances.size(); ++i)
      for (std::size_t k = 0; k < instances[i].steps.size(); ++k) {
        const TaskStep& step = instances[i].steps[k];
        if (step.spawn || g.pending[g.first[i] + 1 + k] == 0) continue;
        int source = instances[i].after[static_cast<std::size_t>(step.index)].from;
        if (g.pending[g.end(instances, static_cast<std::size_t>(source - 1))] == 0) continue;
        fail_at(after_lines[i][static_cast<std::size_t>(step.index)],
                "dependency cycle: instance " + std::to_string(i + 1) + " waits for instance " +
                    std::to_string(source) + ", which cannot end before this point");
      }
    fail_at(0, "the spawn and after records form a cycle");
  }

  std::shared_ptr<const SharedFile> file_;
  LineReader lines_;
  NativeRecordParser parser_;
  int rank_;
  bool truncated_;
  std::map<int, Section> sections_;
  Section* current_ = nullptr;
  std::vector<TaskObject> objects_;
  std::unordered_map<int, std::uint64_t> object_line_;
  std::unordered_map<int, std::size_t> object_index_;  // id -> index into objects_
  std::vector<std::string> source_files_;
  std::unordered_map<std::string, int> source_file_index_;
  std::map<int, Spawn> spawns_;                                 // child -> who spawns it, where
  std::unordered_map<std::uint64_t, std::uint64_t> posted_;     // request -> line
  std::vector<std::pair<std::uint64_t, std::uint64_t>> waits_;  // (request, line)
  std::uint64_t last_bytes_ = 0;
};

}  // namespace

std::vector<double> task_critical_paths(const TaskSet& set, double seconds_per_instruction,
                                        const std::vector<double>& type_speedup) {
  StepGraph g = step_graph(set.instances);
  if (g.order.size() != g.edges.size())
    throw std::invalid_argument("the spawn and after edges of the tasks form a cycle");
  // The seconds of an instruction at each node of the graph: its instance's, by type.
  std::vector<double> scale(g.edges.size(), seconds_per_instruction);
  if (!type_speedup.empty())
    for (std::size_t i = 0; i < set.instances.size(); ++i) {
      double speedup = type_speedup[static_cast<std::size_t>(set.instances[i].type)];
      for (std::size_t v = g.first[i]; v <= g.end(set.instances, i); ++v)
        scale[v] = seconds_per_instruction / speedup;
    }
  std::vector<double> longest(g.edges.size(), 0.0);
  for (auto v = g.order.rbegin(); v != g.order.rend(); ++v)
    for (const auto& [w, instructions] : g.edges[*v])
      longest[*v] = std::max(longest[*v], instructions * scale[*v] + longest[w]);
  std::vector<double> paths;
  for (std::size_t i = 0; i < set.instances.size(); ++i) paths.push_back(longest[g.first[i]]);
  return paths;
}

std::unique_ptr<Trace> open_tasks_trace(TraceHeader header,
                                        const std::vector<std::string>& stream_paths,
                                        const std::vector<bool>& truncated) {
  std::vector<std::vector<InstanceRecords>> records(stream_paths.size());
  header.task_sets.assign(stream_paths.size(), TaskSet{});
  std::uint64_t size = 0;
  CallIndex calls = call_index(header);
  for (std::size_t rank = 0; rank < stream_paths.size(); ++rank) {
    RankLoader loader(
        open_rank_stream(stream_paths[rank], static_cast<int>(rank), truncated[rank], header.notes),
        header, calls, static_cast<int>(rank), truncated[rank]);
    loader.load(header.task_sets[rank], records[rank], header.notes);
    size += loader.size();
    header.threads[rank] = static_cast<int>(header.task_sets[rank].instances.size());
  }
  return std::make_unique<TasksTrace>(std::move(header), std::move(records), size);
}

}  // namespace tareador::trace
