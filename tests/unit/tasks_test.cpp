// The tasks kind: its reader (the task model and the structural checks) and the task-level
// replay (policies, nested tasks, MPI inside tasks, Paraver rows per core), with exact times
// derived by hand on small graphs and list scheduling on generated ones.
#include <gtest/gtest.h>

#include <random>

#include "list_schedule.h"
#include "task_traces.h"

namespace tareador {
namespace {

using replay::TaskPolicy;
using testing::fixture;
using testing::open_tasks;
using testing::replay_tasks;
using testing::task_machine;
using testing::tasks_set;
using testing::TempDir;
using trace::Record;
using trace::RecordType;

std::vector<int> as_vector(trace::Span<const int> ids) { return {ids.begin(), ids.end()}; }

double replay_time(const std::string& set, int cores, TaskPolicy policy) {
  return replay_tasks(*open_tasks(set), cores, policy).total_time;
}

// What a task replay shows, for checks.
struct Recorder final : replay::TimelineSink {
  struct Run {
    int task, core;
    double time;
    int instance, type;
  };
  struct Span {
    int task, core;
    double begin, end;
    replay::State state;
  };
  std::vector<Run> runs;
  std::vector<Span> states;
  std::vector<replay::TaskDependencyArc> arcs;

  void state(int task, int thread, double begin, double end, replay::State s) override {
    states.push_back(Span{task, thread, begin, end, s});
  }
  void event(int, int, double, std::uint64_t, std::uint64_t) override {}
  void message(const replay::Message&) override {}
  void call(int, int, double, double, const Record&) override {}
  void task_start(int task, int core, double time, int instance, int type) override {
    runs.push_back(Run{task, core, time, instance, type});
  }
  void dependency(const replay::TaskDependencyArc& arc) override { arcs.push_back(arc); }
  void finish(double) override {}

  // (time, instance) of the runs of rank `task` that began on a core, main excluded.
  std::vector<std::pair<double, int>> starts(int task) const {
    std::vector<std::pair<double, int>> out;
    for (const Run& r : runs)
      if (r.task == task && r.instance != 1) out.emplace_back(r.time, r.instance);
    return out;
  }
  // [begin, end) of the Running states of rank `task` on `core`.
  std::vector<std::pair<double, double>> running(int task, int core) const {
    std::vector<std::pair<double, double>> out;
    for (const Span& s : states)
      if (s.task == task && s.core == core && s.state == replay::State::Running)
        out.emplace_back(s.begin, s.end);
    return out;
  }
};

// ---- The reader -----------------------------------------------------------------------------

TEST(TasksReader, ReadsTheTaskModel) {
  auto t = open_tasks(fixture("tasks/diamond"));
  const trace::TraceHeader& h = t->header();
  EXPECT_EQ(h.kind, "tasks");
  ASSERT_EQ(h.tasks(), 1);
  EXPECT_EQ(h.threads[0], 5);
  ASSERT_EQ(h.task_sets.size(), 1u);
  const trace::TaskSet& set = h.task_sets[0];
  // Types in the order of their first instance: main first.
  EXPECT_EQ(set.types, (std::vector<std::string>{"main", "a", "b", "c", "d"}));
  ASSERT_EQ(set.objects.size(), 3u);
  EXPECT_EQ(set.objects[0].kind, "heap");
  EXPECT_EQ(set.objects[0].name, "heap#1@diamond.c:10");
  EXPECT_EQ(set.objects[2].size, 8);
  ASSERT_NE(set.object(3), nullptr);
  EXPECT_EQ(set.object(3)->name, "result");
  EXPECT_EQ(set.object(4), nullptr);
  ASSERT_EQ(set.instances.size(), 5u);
  for (std::size_t i = 0; i < set.instances.size(); ++i)
    EXPECT_EQ(set.instances[i].id, static_cast<int>(i) + 1);
  const trace::TaskInstance& main = set.instance(1);
  EXPECT_EQ(main.parent, 0);
  EXPECT_EQ(as_vector(set.children(main)), (std::vector<int>{2, 3, 4, 5}));
  EXPECT_FALSE(main.mpi);
  EXPECT_EQ(main.line, 29u);
  const trace::TaskInstance& d = set.instance(5);
  EXPECT_EQ(set.types[static_cast<std::size_t>(d.type)], "d");
  EXPECT_EQ(d.parent, 1);
  EXPECT_DOUBLE_EQ(d.instructions, 1e6);
  ASSERT_EQ(set.after(d).size(), 2u);
  EXPECT_EQ(set.after(d)[0].from, 3);
  EXPECT_EQ(set.after(d)[0].kinds, trace::kRaw);
  EXPECT_EQ(set.after(d)[0].bytes, 400);
  EXPECT_EQ(as_vector(set.objects_of(set.after(d)[0])), std::vector<int>{2});
  ASSERT_EQ(set.uses(d).size(), 2u);
  EXPECT_EQ(set.uses(d)[1].object, 3);
  EXPECT_EQ(set.uses(d)[1].written, 8);
  // Steps: the spawns and afters in order, with the instructions before each.
  ASSERT_EQ(set.steps(main).size(), 5u);
  EXPECT_TRUE(set.steps(main)[0].spawn);
  EXPECT_FALSE(set.steps(main)[4].spawn);
  EXPECT_EQ(set.steps(main)[4].index, 0);
  ASSERT_EQ(set.steps(d).size(), 2u);
  EXPECT_DOUBLE_EQ(set.steps(d)[1].instructions, 0);

  // Instance 5's stream: its two afters and its burst, located in the file.
  auto stream = t->open(0, 4);
  Record r;
  ASSERT_TRUE(stream->next(r));
  EXPECT_EQ(r.type, RecordType::After);
  EXPECT_EQ(r.peer, 3);
  EXPECT_EQ(r.bytes, 400);
  EXPECT_EQ(r.op, trace::kRaw);
  EXPECT_NE(stream->where().find("tasks.0.trc:23"), std::string::npos) << stream->where();
  ASSERT_TRUE(stream->next(r));
  ASSERT_TRUE(stream->next(r));
  EXPECT_EQ(r.type, RecordType::Burst);
  EXPECT_DOUBLE_EQ(r.amount, 1e6);
  EXPECT_FALSE(stream->next(r));
  // The main task's: four spawns and an after.
  stream = t->open(0, 0);
  ASSERT_TRUE(stream->next(r));
  EXPECT_EQ(r.type, RecordType::Spawn);
  EXPECT_EQ(r.peer, 2);
}

TEST(TasksReader, DependencyKindsAndMpiInstances) {
  auto t = open_tasks(fixture("tasks/cpwins"));
  const trace::TaskSet& set = t->header().task_sets[0];
  trace::Span<const trace::TaskDependency> after = set.after(set.instance(1));
  ASSERT_EQ(after.size(), 3u);
  EXPECT_EQ(after[0].kinds, trace::kWaw);
  EXPECT_EQ(after[2].kinds, trace::kRaw | trace::kWar);
  auto m = open_tasks(fixture("tasks/mpi_preempt"));
  EXPECT_TRUE(m->header().task_sets[0].instance(2).mpi);
  EXPECT_FALSE(m->header().task_sets[0].instance(3).mpi);
  EXPECT_TRUE(m->header().task_sets[1].instance(1).mpi);
}

TEST(TasksReader, FixturesAreValid) {
  for (const char* name : {"diamond", "cpwins", "chain", "nested", "mpi_preempt", "mpi_requests"}) {
    auto t = open_tasks(fixture(std::string("tasks/") + name));
    EXPECT_EQ(trace::validate(*t).problems, std::vector<std::string>{}) << name;
  }
}

TEST(TasksReader, CriticalPathsFollowSteps) {
  // nested: main 1 s, spawn outer, 1 s, wait for outer, 1 s; outer spawns inner (2 s) and
  // leaf (1 s), 1 s, waits for both, 1 s. Longest path from main's start: 1 + inner 2 + outer's
  // last 1 + main's last 1 = 5; from outer's start: 2 + 1 + 1 = 4.
  auto t = open_tasks(fixture("tasks/nested"));
  std::vector<double> paths = trace::task_critical_paths(t->header().task_sets[0], 1e-6);
  EXPECT_EQ(paths, (std::vector<double>{5, 4, 4, 3}));
}

struct BadTasks {
  const char* name;
  std::string body;
  std::uint64_t line;
  const char* message;
};

class TasksBadInput : public ::testing::TestWithParam<BadTasks> {};

TEST_P(TasksBadInput, FailsAtFileAndLine) {
  TempDir dir;
  const BadTasks& bad = GetParam();
  try {
    trace::open_traces(tasks_set(dir, {bad.body}));
    FAIL() << "no error for " << bad.name;
  } catch (const trace::FormatError& e) {
    EXPECT_NE(e.file().find("tasks.0.trc"), std::string::npos) << e.what();
    EXPECT_EQ(e.line(), bad.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos) << e.what();
  }
}

const std::string kMain = "task 1 main 0\nspawn 2\nendtask\nend\n";

INSTANTIATE_TEST_SUITE_P(
    Structure, TasksBadInput,
    ::testing::Values(
        BadTasks{"unknown object in after",
                 "task 2 a 1\nendtask\ntask 1 main 0\nspawn 2\nafter 2 raw 8 9\nendtask\nend\n", 6,
                 "unknown object 9"},
        BadTasks{"unknown object in uses", "task 1 main 0\nuses 4 1 1\nendtask\nend\n", 3,
                 "unknown object 4"},
        BadTasks{"section not closed", "task 2 a 1\ncpu 10\n" + kMain, 4, "is not closed"},
        BadTasks{"section not closed at end", "task 1 main 0\ncpu 10\nend\n", 4,
                 "is not closed ('endtask') before 'end'"},
        BadTasks{"duplicate section", "task 2 a 1\nendtask\ntask 2 a 1\nendtask\n" + kMain, 4,
                 "duplicate section"},
        BadTasks{"never spawned", "task 2 a 1\nendtask\ntask 1 main 0\nendtask\nend\n", 2,
                 "is never spawned"},
        BadTasks{"spawned twice",
                 "task 2 a 1\nendtask\ntask 1 main 0\nspawn 2\nspawn 2\nendtask\nend\n", 6,
                 "spawned twice"},
        BadTasks{"parent not smaller", "task 2 a 3\nendtask\n" + kMain, 2, "smaller number"},
        BadTasks{"spawn of an earlier instance", "task 3 t 2\nspawn 2\nendtask\n" + kMain, 3,
                 "spawns instance 2, which has a smaller number"},
        BadTasks{"a quoted name that does not end", "task 2 \"a b 1\nendtask\n" + kMain, 2,
                 "the quoted string does not end"},
        BadTasks{"a name that is not UTF-8", "task 2 caf\xe9 1\nendtask\n" + kMain, 2,
                 "is not valid UTF-8"},
        BadTasks{"main with a parent", "task 1 main 2\nendtask\nend\n", 2, "parent must be 0"},
        BadTasks{"after on itself",
                 "object 1 global 8 x\ntask 2 a 1\nafter 2 raw 8 1\nendtask\n" + kMain, 4,
                 "depends on itself"},
        BadTasks{"after on an ancestor",
                 "object 1 global 8 x\ntask 3 b 2\nafter 1 raw 8 1\nendtask\ntask 2 a 1\n"
                 "spawn 3\nendtask\n" +
                     kMain,
                 4, "one of its ancestors"},
        BadTasks{"after on an unknown instance",
                 "object 1 global 8 x\ntask 2 a 1\nafter 7 waw 8 1\nendtask\n" + kMain, 4,
                 "after on instance 7, which has no section"},
        BadTasks{"spawn of an unknown instance",
                 "task 2 a 1\nendtask\ntask 1 main 0\nspawn 2\nspawn 3\nendtask\nend\n", 6,
                 "spawn of instance 3, which has no section"},
        BadTasks{"a gap in the numbers",
                 "task 3 a 1\nendtask\ntask 1 main 0\nspawn 3\nendtask\nend\n", 0,
                 "instances are numbered 1..3 but instance 2 has no section"},
        BadTasks{"spawned by another than its parent",
                 "task 3 b 1\nendtask\ntask 2 a 1\nspawn 3\nendtask\n" + kMain, 5,
                 "whose parent is instance 1"},
        BadTasks{"record outside a section", "cpu 10\n" + kMain, 2, "outside a task section"},
        BadTasks{"an instance id no stream of this size holds",
                 "task 5000000 a 1\nendtask\n" + kMain, 2,
                 "instance 5000000 is beyond what this stream can hold"},
        BadTasks{"endtask outside a section", "endtask\n" + kMain, 2, "'endtask' outside"},
        BadTasks{"unknown dependency kind",
                 "object 1 global 8 x\ntask 2 a 1\nendtask\ntask 1 main 0\nspawn 2\n"
                 "after 2 rawr 8 1\nendtask\nend\n",
                 7, "unknown dependency kind 'rawr'"},
        BadTasks{"unknown object kind", "object 1 disk 8 x\n" + kMain, 2, "unknown object kind"},
        BadTasks{"object declared twice", "object 1 heap 8 x\nobject 1 heap 8 y\n" + kMain, 3,
                 "declared twice"},
        BadTasks{"dependency cycle",
                 "object 1 global 8 x\ntask 2 a 1\nafter 3 raw 8 1\nendtask\ntask 3 b 1\n"
                 "after 2 raw 8 1\nendtask\ntask 1 main 0\nspawn 2\nspawn 3\nendtask\nend\n",
                 4, "dependency cycle"},
        BadTasks{"wait for a request never posted", "task 1 main 0\nwait 5\nendtask\nend\n", 3,
                 "which no isend or irecv of the stream posts"},
        BadTasks{"unknown record", "task 1 main 0\nfork 2\nendtask\nend\n", 3,
                 "unknown record 'fork'"},
        BadTasks{"record after end", "task 1 main 0\nendtask\nend\ncpu 1\n", 5,
                 "record after 'end'"},
        BadTasks{"missing end", "task 1 main 0\ncpu 10\nendtask\n", 4, "without its 'end' line"}),
    [](const ::testing::TestParamInfo<BadTasks>& info) {
      std::string name = info.param.name;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

TEST(TasksReader, TruncatedStreamWhoseSpawnsWouldLoop) {
  // Instance 3 spawns 2 (never valid) and instance 2's section is missing: its parent chain
  // would lead back to 3. The reader says so at once instead of walking the chain forever.
  TempDir dir;
  std::string set = tasks_set(dir,
                              {"object 1 global 8 x\ntask 3 t 2\nspawn 2\nafter 1 raw 8 1\n"
                               "endtask\n"},
                              true);
  try {
    trace::open_traces(set);
    FAIL() << "no error";
  } catch (const trace::FormatError& e) {
    EXPECT_EQ(e.line(), 4u) << e.what();
  }
}

TEST(TasksReader, QuotedNames) {
  TempDir dir;
  auto t = open_tasks(
      tasks_set(dir, {"object 1 heap 8 \"vector<...> x\"\ntask 2 \"copy \\\"a\\\" \\u00e9\" 1\n"
                      "uses 1 8 0\nendtask\n" +
                      kMain}));
  const trace::TaskSet& tasks = t->header().task_sets[0];
  EXPECT_EQ(tasks.types.at(1), "copy \"a\" \u00e9");
  EXPECT_EQ(tasks.objects.at(0).name, "vector<...> x");
}

TEST(TasksReader, NoSectionAtAll) {
  TempDir dir;
  EXPECT_THROW(trace::open_traces(tasks_set(dir, {"end\n"})), trace::FormatError);
}

TEST(TasksReader, TruncatedStreamReplaysWhatItHas) {
  // The rank died before the main task ended: its section (and `end`) are missing. The main
  // task is made up: it spawns the orphans.
  TempDir dir;
  std::string set = tasks_set(dir,
                              {"task 2 a 1\ncpu 2000000\nendtask\ntask 3 b 1\ncpu 1000000\n"
                               "endtask\ntask 4 c 1\ncpu 5"},
                              true);
  auto t = open_tasks(set);
  const trace::TraceHeader& h = t->header();
  ASSERT_EQ(h.threads[0], 3);  // the unfinished section of 4 is ignored
  EXPECT_EQ(as_vector(h.task_sets[0].children(h.task_sets[0].instance(1))),
            (std::vector<int>{2, 3}));
  bool noted = false;
  for (const std::string& note : h.notes)
    noted |= note.find("without a section in the truncated stream") != std::string::npos;
  EXPECT_TRUE(noted);
  EXPECT_DOUBLE_EQ(replay_tasks(*t, 2, TaskPolicy::Fifo).total_time, 2.0);
}

TEST(TasksReader, NoConversionToOtherFormats) {
  TempDir dir;
  auto t = open_tasks(fixture("tasks/diamond"));
  EXPECT_THROW(trace::make_dimemas_writer(dir.path("x.dim"), t->header()), std::invalid_argument);
  EXPECT_THROW(trace::make_native_writer(dir.path("x"), t->header()), std::invalid_argument);
  // Prefetching an in-memory trace changes nothing.
  auto same = trace::prefetch(std::move(t));
  EXPECT_EQ(same->header().task_sets.size(), 1u);
}

// The fields of a record, for comparisons.
std::string fields(const Record& r) {
  return std::to_string(static_cast<int>(r.type)) + " " + std::to_string(r.flags) + " " +
         std::to_string(r.op) + " " + std::to_string(r.peer) + " " + std::to_string(r.peer_thread) +
         " " + std::to_string(r.comm) + " " + std::to_string(r.lines) + " " +
         std::to_string(r.tag) + " " + std::to_string(r.bytes) + " " +
         std::to_string(r.bytes_recv) + " " + std::to_string(r.request) + " " +
         std::to_string(r.amount) + " " + std::to_string(r.event_type) + " " +
         std::to_string(r.event_value);
}

TEST(TasksReader, CursorsReadWhatStreamsRead) {
  TempDir dir;
  std::vector<std::unique_ptr<trace::Trace>> traces;
  for (const char* name : {"diamond", "nested", "mpi_preempt", "mpi_requests"})
    traces.push_back(open_tasks(fixture(std::string("tasks/") + name)));
  // Instances 1 and 2 have no section: made up, 1 spawns 2 and 4, and 2 spawns 3.
  traces.push_back(open_tasks(
      tasks_set(dir, {"task 3 b 2\ncpu 5\nendtask\ntask 4 c 1\ncpu 7\nendtask\n"}, true)));
  for (const auto& t : traces) {
    const trace::TraceHeader& h = t->header();
    for (int task = 0; task < h.tasks(); ++task)
      for (int thread = 0; thread < h.threads[static_cast<std::size_t>(task)]; ++thread) {
        std::string which = h.path + " " + std::to_string(task) + "." + std::to_string(thread);
        auto stream = t->open(task, thread);
        std::optional<trace::RecordCursor> at = t->cursor(task, thread);
        ASSERT_TRUE(at) << which;
        EXPECT_EQ(at->mark, stream->mark()) << which;
        Record a, b;
        while (stream->next(a)) {
          ASSERT_TRUE(t->next(task, *at, b)) << which;
          EXPECT_EQ(fields(b), fields(a)) << which;
          EXPECT_EQ(at->mark, stream->mark()) << which;
        }
        trace::RecordCursor end = *at;
        EXPECT_FALSE(t->next(task, *at, b)) << which;
        EXPECT_EQ(at->offset, end.offset) << which;
      }
  }
  auto made_up = traces.back()->open(0, 1);  // instance 2: its spawn of 3
  Record r;
  ASSERT_TRUE(made_up->next(r));
  EXPECT_EQ(r.type, RecordType::Spawn);
  EXPECT_EQ(r.peer, 3);
  EXPECT_FALSE(made_up->next(r));
  // Streams read from files have no cursors.
  auto dim = trace::open_dimemas(dir.write("t.dim", testing::dim_header(1) + "1:0:0:1.5\n"));
  EXPECT_FALSE(dim->cursor(0, 0));
}

TEST(TasksReader, WithoutTheUses) {
  trace::OpenOptions lean;
  lean.task_uses = false;
  auto all = open_tasks(fixture("tasks/diamond"));
  auto without = trace::open_traces(fixture("tasks/diamond"), {"tasks"}, lean);
  const trace::TaskSet& a = all->header().task_sets[0];
  const trace::TaskSet& b = without.front()->header().task_sets[0];
  ASSERT_EQ(b.instances.size(), a.instances.size());
  EXPECT_EQ(a.uses(a.instance(5)).size(), 2u);
  for (const trace::TaskInstance& in : b.instances) {
    EXPECT_TRUE(b.uses(in).empty());
    const trace::TaskInstance& same = a.instance(in.id);
    EXPECT_EQ(as_vector(b.children(in)), as_vector(a.children(same)));
    EXPECT_EQ(b.after(in).size(), a.after(same).size());
    EXPECT_EQ(b.steps(in).size(), a.steps(same).size());
  }
  // Its `uses` lines are checked all the same.
  TempDir dir;
  std::string set = tasks_set(dir, {"task 1 main 0\nuses 9 8 8\nendtask\nend\n"});
  EXPECT_THROW(trace::open_traces(set, {}, lean), trace::FormatError);
}

// ---- The replay -----------------------------------------------------------------------------

TEST(TaskReplay, DiamondOnOneAndTwoCores) {
  // a (1 s) -> b (2 s), c (1 s) -> d (1 s); main only spawns and waits for d.
  // 1 core: 5 s (all the work); 2 cores: a 0-1, b 1-3, c 1-2, d 3-4.
  std::string set = fixture("tasks/diamond");
  for (TaskPolicy p : {TaskPolicy::Fifo, TaskPolicy::CriticalPath, TaskPolicy::Mpi}) {
    EXPECT_DOUBLE_EQ(replay_time(set, 1, p), 5.0);
    EXPECT_DOUBLE_EQ(replay_time(set, 2, p), 4.0);
    EXPECT_DOUBLE_EQ(replay_time(set, 8, p), 4.0);
  }
  Recorder rec;
  auto t = open_tasks(set);
  replay::Result r = replay_tasks(*t, 2, TaskPolicy::Fifo, &rec);
  ASSERT_TRUE(r.tasks);
  EXPECT_EQ(r.tasks->instances, 5);
  EXPECT_EQ(r.tasks->cores, std::vector<int>{2});
  EXPECT_EQ(r.tasks->profile, (std::vector<double>{0, 3, 1}));  // 2 cores busy during 1-2
  EXPECT_DOUBLE_EQ(r.tasks->busy, 5.0);
  EXPECT_EQ(r.tasks->peak, 2);
  EXPECT_DOUBLE_EQ(r.ranks[0].compute, 5.0);
  EXPECT_DOUBLE_EQ(r.ranks[0].idle, 3.0);  // core-seconds: 2 cores x 4 s - 5 s
  EXPECT_EQ(rec.starts(0), (std::vector<std::pair<double, int>>{{0, 2}, {1, 3}, {1, 4}, {3, 5}}));
  // Five dependencies, each drawn from its source's end. d reaches its `after c` (c ended at
  // 2) once its `after b` is satisfied, at 3, and runs at once.
  ASSERT_EQ(rec.arcs.size(), 5u);
  int checked = 0;
  for (const replay::TaskDependencyArc& arc : rec.arcs) {
    if (arc.dst_instance == 5 && arc.src_instance == 4) {
      EXPECT_DOUBLE_EQ(arc.src_end, 2.0);
      EXPECT_DOUBLE_EQ(arc.satisfied, 3.0);
      EXPECT_DOUBLE_EQ(arc.resumed, 3.0);
      EXPECT_EQ(arc.bytes, 400);
      EXPECT_EQ(arc.src_core, 1);  // b took core 0 (the lower id, the lower core), c core 1
      ++checked;
    }
    if (arc.dst_instance == 1) {  // main after d: d ends at 4, main never runs again
      EXPECT_DOUBLE_EQ(arc.src_end, 4.0);
      EXPECT_DOUBLE_EQ(arc.resumed, 4.0);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2);
}

TEST(TaskReplay, CriticalPathBeatsCreationOrder) {
  // a, a' (1 s), c (2 s) -> d (2 s) on 2 cores: fifo runs a, a' first (5 s), cp c first (4 s).
  std::string set = fixture("tasks/cpwins");
  EXPECT_DOUBLE_EQ(replay_time(set, 2, TaskPolicy::Fifo), 5.0);
  EXPECT_DOUBLE_EQ(replay_time(set, 2, TaskPolicy::CriticalPath), 4.0);
  EXPECT_DOUBLE_EQ(replay_time(set, 1, TaskPolicy::Fifo), 6.0);
  EXPECT_DOUBLE_EQ(replay_time(set, 1, TaskPolicy::CriticalPath), 6.0);
  EXPECT_DOUBLE_EQ(replay_time(set, 3, TaskPolicy::Fifo), 4.0);
}

TEST(TaskReplay, ChainHasNoParallelism) {
  // main 1 s, then three 1 s steps each after the previous one.
  for (int cores : {1, 2, 4})
    for (TaskPolicy p : {TaskPolicy::Fifo, TaskPolicy::CriticalPath, TaskPolicy::Mpi})
      EXPECT_DOUBLE_EQ(replay_time(fixture("tasks/chain"), cores, p), 4.0);
}

TEST(TaskReplay, NestedTasksAndTaskwaits) {
  // 2 cores: main 0-2 (outer created at 1 runs 1-2 beside it); at 2 main and outer wait, inner
  // 2-4 and leaf 2-3 run; outer resumes 4-5, main 5-6. 1 core: all the work, 8 s. 3 cores:
  // inner starts at 1: outer resumes at 3, main at 4: 5 s.
  std::string set = fixture("tasks/nested");
  EXPECT_DOUBLE_EQ(replay_time(set, 1, TaskPolicy::Fifo), 8.0);
  EXPECT_DOUBLE_EQ(replay_time(set, 2, TaskPolicy::Fifo), 6.0);
  EXPECT_DOUBLE_EQ(replay_time(set, 3, TaskPolicy::Fifo), 5.0);
  EXPECT_DOUBLE_EQ(replay_time(set, 2, TaskPolicy::CriticalPath), 6.0);
  Recorder rec;
  auto t = open_tasks(set);
  replay_tasks(*t, 2, TaskPolicy::Fifo, &rec);
  // The main task ran twice: before its taskwait and after outer ended.
  std::vector<double> main_runs;
  for (const Recorder::Run& r : rec.runs)
    if (r.instance == 1) main_runs.push_back(r.time);
  EXPECT_EQ(main_runs, (std::vector<double>{0, 5}));
  EXPECT_EQ(rec.starts(0), (std::vector<std::pair<double, int>>{{1, 2}, {2, 3}, {2, 4}, {4, 2}}));
}

TEST(TaskReplay, MpiPolicyGivesTheCoreAwayAndPreempts) {
  // Rank 0, 1 core: comm receives (the message arrives at 1), computes 1 s, answers rank 1;
  // work computes 4 s. Rank 1 computes 1 s, sends, then waits for the answer.
  //  fifo: comm busy-waits 0-1, computes 1-2, answers at 2; work 2-6.      -> ends 6, 2
  //  cp:   work (4 s) first 0-4; comm 4-5, answers at 5.                   -> ends 5, 5
  //  mpi:  comm blocks and gives its core to work (0-1), preempts it at 1, answers at 2;
  //        work resumes its 3 s left at 2.                                  -> ends 5, 2
  std::string set = fixture("tasks/mpi_preempt");
  auto ends = [&](TaskPolicy p, Recorder* rec = nullptr) {
    auto t = open_tasks(set);
    replay::Result r = replay_tasks(*t, 1, p, rec);
    return std::vector<double>{r.ranks[0].end, r.ranks[1].end};
  };
  EXPECT_EQ(ends(TaskPolicy::Fifo), (std::vector<double>{6, 2}));
  EXPECT_EQ(ends(TaskPolicy::CriticalPath), (std::vector<double>{5, 5}));
  Recorder rec;
  EXPECT_EQ(ends(TaskPolicy::Mpi, &rec), (std::vector<double>{5, 2}));
  EXPECT_EQ(rec.starts(0), (std::vector<std::pair<double, int>>{{0, 2}, {0, 3}, {1, 2}, {2, 3}}));
  EXPECT_EQ(rec.running(0, 0), (std::vector<std::pair<double, double>>{{0, 1}, {1, 2}, {2, 5}}));
}

TEST(TaskReplay, RequestsAcrossInstancesOnTwoRanks) {
  // Rank 0: post posts an irecv that finish (after post) waits for; work computes 2 s.
  // Rank 1 sends at 3 and waits for finish's answer. 1 core (fifo): post at 0, work 0-2,
  // finish waits 2-3, computes 3-4, answers at 4.
  std::string set = fixture("tasks/mpi_requests");
  for (TaskPolicy p : {TaskPolicy::Fifo, TaskPolicy::CriticalPath, TaskPolicy::Mpi}) {
    auto t = open_tasks(set);
    replay::Result r = replay_tasks(*t, 1, p);
    EXPECT_DOUBLE_EQ(r.ranks[0].end, 4.0);
    EXPECT_DOUBLE_EQ(r.ranks[1].end, 4.0);
    EXPECT_EQ(r.messages, 2u);
  }
}

TEST(TaskReplay, WaitBeforeThePostWaitsForIt) {
  // waiter waits for request 3 before poster (1 s of work first) has posted it.
  TempDir dir;
  std::string set = tasks_set(
      dir, {"task 2 poster 1\ncpu 1000000\nirecv 1 1 1 8 3\nendtask\ntask 3 waiter 1\nwait 3\n"
            "cpu 1000000\nendtask\ntask 1 main 0\nspawn 2\nspawn 3\nendtask\nend\n",
            "task 1 main 0\nsend 0 1 1 8 eager\nendtask\nend\n"});
  auto t = open_tasks(set);
  replay::Result r = replay_tasks(*t, 2, TaskPolicy::Fifo);
  EXPECT_DOUBLE_EQ(r.ranks[0].end, 2.0);
  EXPECT_DOUBLE_EQ(r.ranks[0].waiting, 1.0);  // waiter, 0-1, on its core
}

TEST(TaskReplay, DeadlockNamesTheInstances) {
  TempDir dir;
  std::string set =
      tasks_set(dir, {"object 1 global 8 x\ntask 2 recvr 1\nrecv 1 1 1 8\nendtask\ntask 1 main 0\n"
                      "spawn 2\nafter 2 raw 8 1\nendtask\nend\n",
                      "task 1 main 0\ncpu 10\nendtask\nend\n"});
  auto t = open_tasks(set);
  try {
    replay_tasks(*t, 2, TaskPolicy::Fifo);
    FAIL() << "no deadlock";
  } catch (const replay::DeadlockError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("rank 0 instance 2 (recvr) is blocked at "), std::string::npos) << what;
    EXPECT_NE(what.find("tasks.0.trc:4 in receive of 8 bytes from rank 1"), std::string::npos)
        << what;
    EXPECT_NE(what.find("rank 0 instance 1 (main) is blocked at "), std::string::npos) << what;
    EXPECT_NE(what.find("waiting for instance 2 (recvr) to end"), std::string::npos) << what;
  }
}

TEST(TaskReplay, UnboundedCores) {
  auto t = open_tasks(fixture("tasks/cpwins"));
  replay::Machine m = task_machine(1, 1);
  replay::make_cores_unbounded(m, t->header());
  EXPECT_EQ(m.nodes[0].cores, 5);
  replay::SimulationOptions options;
  replay::Result r = replay::simulate(*t, m, options);
  EXPECT_DOUBLE_EQ(r.total_time, 4.0);  // c -> d
  ASSERT_TRUE(r.tasks);
  EXPECT_EQ(r.tasks->peak, 3);
  EXPECT_EQ(r.tasks->reference_cores(), 3);  // unbounded: what was used
  r.tasks->one_core_time = 6.0;
  EXPECT_DOUBLE_EQ(r.tasks->speedup(r.total_time), 1.5);
  EXPECT_DOUBLE_EQ(r.tasks->efficiency(r.total_time), 0.5);
}

TEST(TaskReplay, PoliciesByName) {
  EXPECT_EQ(replay::task_policy_from_name("cp"), TaskPolicy::CriticalPath);
  EXPECT_EQ(replay::task_policy_name(TaskPolicy::Mpi), "mpi");
  EXPECT_THROW(replay::task_policy_from_name("lifo"), std::invalid_argument);
}

TEST(TaskReplay, OtherKindsAreNotTaskReplays) {
  TempDir dir;
  replay::Result r = testing::simulate_dim(dir, 1, "1:0:0:1.5\n", testing::machine(1, 0, 0));
  EXPECT_FALSE(r.tasks);
  EXPECT_DOUBLE_EQ(r.total_time, 1.5);
}

TEST(TaskReplay, ParaverRowsPerCoreTaskEventsAndDependencies) {
  TempDir dir;
  auto t = open_tasks(fixture("tasks/nested"));
  replay::Machine m = task_machine(1, 2);
  std::string prv = dir.path("out.prv");
  auto sink = replay::make_paraver_sink(prv, t->header(), m);
  replay::SimulationOptions options;
  options.sink = sink.get();
  replay::simulate(*t, m, options);
  std::string row = testing::read_file(dir.path("out.row"));
  EXPECT_NE(row.find("LEVEL THREAD SIZE 2\nrank 0 core 0\nrank 0 core 1\n"), std::string::npos)
      << row;
  std::string pcf = testing::read_file(dir.path("out.pcf"));
  EXPECT_NE(pcf.find("60000100    Task type\nVALUES\n0      End\n1      main\n2      outer\n"
                     "3      inner\n4      leaf\n"),
            std::string::npos)
      << pcf;
  EXPECT_NE(pcf.find("Cores busy"), std::string::npos);
  std::string body = testing::read_file(prv);
  EXPECT_NE(body.find(":1(2):1:1(2:1),0\n"), std::string::npos) << body;  // 1 task, 2 rows
  std::size_t comms = 0, lines = 0;
  for (std::size_t at = 0; (at = body.find('\n', at)) != std::string::npos; ++at) {
    ++lines;
    if (body.compare(at + 1, 2, "3:") == 0) ++comms;
  }
  EXPECT_EQ(comms, 3u);  // outer after inner and leaf, main after outer
  // outer starts on core 1 at 1 s: type 2 (outer), instance 2.
  EXPECT_NE(body.find("\n2:2:1:1:2:1000000000:60000100:2:60000101:2\n"), std::string::npos) << body;
  // leaf -> outer: from leaf's core (1) at 3 s to outer's core (0), which waits for inner
  // then (so satisfied at 4 s) and runs at 4 s; 512 bytes of raw.
  EXPECT_NE(body.find("\n3:2:1:1:2:3000000000:3000000000:1:1:1:1:4000000000:4000000000:512:1\n"),
            std::string::npos)
      << body;
}

TEST(TaskReplay, ParaverKeepsTheRowsUsed) {
  // Unbounded cores (5, one per instance) but at most 3 instances at once: 3 rows.
  TempDir dir;
  auto t = open_tasks(fixture("tasks/cpwins"));
  replay::Machine m = task_machine(1, 1);
  replay::make_cores_unbounded(m, t->header());
  auto sink = replay::make_paraver_sink(dir.path("u.prv"), t->header(), m);
  replay::SimulationOptions options;
  options.sink = sink.get();
  replay::simulate(*t, m, options);
  EXPECT_NE(testing::read_file(dir.path("u.row")).find("LEVEL THREAD SIZE 3\n"), std::string::npos);
  std::string prv = testing::read_file(dir.path("u.prv"));
  // (The header written before the body reserved 5 rows: the final one goes before a copy.)
  EXPECT_EQ(prv.rfind("#Paraver (01/01/70 at 00:00):00000000004000000000_ns:1(5):1:1(3:1),0\n", 0),
            0u);
}

// ---- Against list scheduling ---------------------------------------------------------------

// A flat graph: main spawns `n` tasks of 1..5 s, each depending on up to two earlier ones,
// then waits for those nothing depends on.
std::string random_graph(unsigned seed, int n) {
  std::mt19937 random(seed);
  std::string out = "object 1 heap 64 heap#1@gen.c:1\n";
  std::vector<bool> has_successor(static_cast<std::size_t>(n) + 2, false);
  for (int id = 2; id < n + 2; ++id) {
    out += "task " + std::to_string(id) + " t" + std::to_string(id % 3) + " 1\n";
    std::set<int> deps;
    for (int k = 0; k < 2 && id > 2; ++k)
      if (random() % 3 != 0)
        deps.insert(2 + static_cast<int>(random() % static_cast<unsigned>(id - 2)));
    for (int d : deps) {
      out += "after " + std::to_string(d) + " raw 8 1\n";
      has_successor[static_cast<std::size_t>(d)] = true;
    }
    out += "cpu " + std::to_string((1 + random() % 5) * 1000000) + "\nendtask\n";
  }
  out += "task 1 main 0\n";
  for (int id = 2; id < n + 2; ++id) out += "spawn " + std::to_string(id) + "\n";
  for (int id = 2; id < n + 2; ++id)
    if (!has_successor[static_cast<std::size_t>(id)])
      out += "after " + std::to_string(id) + " raw 8 1\n";
  return out + "endtask\nend\n";
}

TEST(TaskReplay, CriticalPathPolicyIsListScheduling) {
  for (const char* name : {"diamond", "cpwins", "chain"}) {
    auto t = open_tasks(fixture(std::string("tasks/") + name));
    const trace::TaskSet& set = t->header().task_sets[0];
    if (set.instance(1).instructions > 0) continue;  // list scheduling leaves main out
    for (int cores = 1; cores <= 4; ++cores)
      EXPECT_DOUBLE_EQ(replay_tasks(*t, cores, TaskPolicy::CriticalPath).total_time,
                       testing::list_schedule_makespan(set, cores, 1e-6))
          << name << " on " << cores << " cores";
  }
  for (unsigned seed = 1; seed <= 6; ++seed) {
    TempDir dir;
    auto t = open_tasks(tasks_set(dir, {random_graph(seed, 14)}));
    const trace::TaskSet& set = t->header().task_sets[0];
    double one = testing::list_schedule_makespan(set, 1, 1e-6);
    for (int cores = 1; cores <= 4; ++cores) {
      replay::Result r = replay_tasks(*t, cores, TaskPolicy::CriticalPath);
      double expected = testing::list_schedule_makespan(set, cores, 1e-6);
      EXPECT_DOUBLE_EQ(r.total_time, expected) << "seed " << seed << ", " << cores << " cores";
      EXPECT_DOUBLE_EQ(one / r.total_time, one / expected);  // the speedups agree
    }
  }
}

// A trace read through its streams only: its instances never park (Engine::park).
class StreamsOnly final : public trace::Trace {
 public:
  explicit StreamsOnly(const trace::Trace& trace) : trace_(trace) {}
  const trace::TraceHeader& header() const override { return trace_.header(); }
  std::unique_ptr<trace::RecordStream> open(int task, int thread) const override {
    return trace_.open(task, thread);
  }
  std::uint64_t size_bytes() const override { return trace_.size_bytes(); }

 private:
  const trace::Trace& trace_;
};

// Everything a replay shows: its summary, timeline and dependency arcs, or its deadlock.
std::string replay_shown(const trace::Trace& t, int cores, TaskPolicy policy) {
  Recorder sink;
  std::ostringstream out;
  try {
    replay::Result r = replay_tasks(t, cores, policy, &sink);
    out << r.total_time << " " << r.records << " " << r.tasks->busy << "\n";
  } catch (const replay::DeadlockError& e) {
    out << e.what() << "\n";
  }
  for (const Recorder::Run& run : sink.runs)
    out << "run " << run.task << " " << run.core << " " << run.time << " " << run.instance << "\n";
  for (const Recorder::Span& s : sink.states)
    out << "state " << s.task << " " << s.core << " " << s.begin << " " << s.end << " "
        << static_cast<int>(s.state) << "\n";
  for (const replay::TaskDependencyArc& a : sink.arcs)
    out << "arc " << a.src_instance << " " << a.dst_instance << " " << a.src_core << " "
        << a.dst_core << " " << a.src_end << " " << a.resumed << " " << a.bytes << "\n";
  return out.str();
}

TEST(TaskReplay, ParkedInstancesReplayAsIfNeverParked) {
  // Instances waiting for a core or another instance give their state back and read their
  // record again when they go on: the same replay as with a stream each throughout.
  std::vector<std::unique_ptr<trace::Trace>> traces;
  for (const char* name : {"diamond", "cpwins", "chain", "nested", "mpi_preempt", "mpi_requests"})
    traces.push_back(open_tasks(fixture(std::string("tasks/") + name)));
  for (unsigned seed = 1; seed <= 3; ++seed) {
    TempDir dir;
    traces.push_back(open_tasks(tasks_set(dir, {random_graph(seed, 40)})));
  }
  for (const auto& t : traces)
    for (TaskPolicy policy : {TaskPolicy::Fifo, TaskPolicy::CriticalPath, TaskPolicy::Mpi})
      for (int cores = 1; cores <= 3; ++cores)
        EXPECT_EQ(replay_shown(*t, cores, policy), replay_shown(StreamsOnly(*t), cores, policy))
            << t->header().path << ", " << replay::task_policy_name(policy) << ", " << cores
            << " core(s)";
}

}  // namespace
}  // namespace tareador
