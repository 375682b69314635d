// The task model at scale: a TaskSet's flat lists, the records of a tasks stream encoded in
// memory (RecordCode), and a generated stream of thousands of instances (the main task's
// section last) read back whole, with its critical paths against a dynamic program.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "test_util.h"
#include "tracefmt/record_code.h"

namespace tareador {
namespace {

using testing::TempDir;
using trace::Record;
using trace::RecordType;

template <class T>
std::vector<T> as_vector(trace::Span<const T> items) {
  return {items.begin(), items.end()};
}

TEST(TaskSet, ListsOfEachInstanceStayTogetherWhateverTheOrderOfAppends) {
  trace::TaskSet set;
  for (int i = 0; i < 3; ++i) set.add_instance({});
  EXPECT_EQ(set.instance(3).id, 3);
  set.add_spawn(1, 2, trace::SourceSite{0, 8}, 10);
  set.add_after(2, {1, trace::kRaw, 8, {}, {}}, {4, 5}, 20);
  set.add_spawn(1, 3, trace::SourceSite{0, 9}, 30);  // 1's list moves past 2's
  set.add_use(3, {7, 1, 2, false, false, 0, 0});
  set.add_after(1, {3, trace::kWar, 16, {}, {}}, {6}, 40);
  const trace::TaskSet& s = set;
  const trace::TaskInstance& main = s.instance(1);
  EXPECT_EQ(as_vector(s.children(main)), (std::vector<int>{2, 3}));
  ASSERT_EQ(s.spawn_sites(main).size(), 2u);
  EXPECT_EQ(s.spawn_sites(main)[1].line, 9);
  ASSERT_EQ(s.steps(main).size(), 3u);
  EXPECT_TRUE(s.steps(main)[1].spawn);
  EXPECT_EQ(s.steps(main)[1].index, 1);
  EXPECT_DOUBLE_EQ(s.steps(main)[1].instructions, 30);
  EXPECT_FALSE(s.steps(main)[2].spawn);
  EXPECT_EQ(s.steps(main)[2].index, 0);
  EXPECT_EQ(s.after(main)[0].from, 3);
  EXPECT_EQ(as_vector(s.objects_of(s.after(main)[0])), std::vector<int>{6});
  EXPECT_EQ(as_vector(s.objects_of(s.after(s.instance(2))[0])), (std::vector<int>{4, 5}));
  EXPECT_EQ(s.uses(s.instance(3))[0].object, 7);
  EXPECT_TRUE(s.uses(s.instance(2)).empty());
  // An instance placed by id leaves placeholders (id 0) below it.
  trace::TaskInstance far;
  far.id = 6;
  set.add_instance(far);
  ASSERT_EQ(set.instances.size(), 6u);
  EXPECT_EQ(set.instance(5).id, 0);
  EXPECT_EQ(set.instance(6).id, 6);
}

TEST(RecordCode, EveryFieldAndLineComesBackAsWritten) {
  std::vector<Record> records(6);
  records[0].type = RecordType::Burst;
  records[0].flags = trace::kInstructions;
  records[0].amount = 123456789;
  records[1].type = RecordType::Send;
  records[1].flags = trace::kImmediate | trace::kRendezvous;
  records[1].peer = 3;
  records[1].comm = 2;
  records[1].tag = (std::int64_t{1} << 37) + 5;
  records[1].bytes = 65536;
  records[1].lines = 17;
  records[1].request = std::numeric_limits<std::uint64_t>::max();
  records[2].type = RecordType::GlobalOp;
  records[2].op = trace::kAllreduce;
  records[2].peer_thread = 0;
  records[2].bytes = 8;
  records[2].bytes_recv = 16;
  records[3].type = RecordType::Event;
  records[3].event_type = 90000001;
  records[3].event_value = 7;
  records[4].type = RecordType::Burst;
  records[4].amount = 1.5e-6;  // seconds: not a whole number, kept as a double
  records[5].type = RecordType::After;
  records[5].peer = 2000000;
  records[5].op = trace::kRaw | trace::kWaw;
  records[5].bytes = -1;
  const std::vector<std::uint64_t> lines = {10, 11, 4000000000ull, 12, 0, 13};
  std::vector<std::uint8_t> code;
  std::uint64_t previous = 9;
  for (std::size_t k = 0; k < records.size(); ++k)
    trace::RecordCode::append(code, records[k], lines[k], k + 20, previous);
  const std::uint8_t* at = code.data();
  std::uint64_t line = 9;
  for (std::size_t k = 0; k < records.size(); ++k) {
    Record r;
    std::uint64_t bytes = 0;
    trace::RecordCode::read(at, r, line, bytes);
    const Record& w = records[k];
    EXPECT_TRUE(r.type == w.type && r.flags == w.flags && r.op == w.op && r.peer == w.peer &&
                r.peer_thread == w.peer_thread && r.comm == w.comm && r.lines == w.lines &&
                r.tag == w.tag && r.bytes == w.bytes && r.bytes_recv == w.bytes_recv &&
                r.request == w.request && r.amount == w.amount && r.event_type == w.event_type &&
                r.event_value == w.event_value)
        << "record " << k;
    EXPECT_EQ(line, lines[k]) << "record " << k;
    EXPECT_EQ(bytes, k + 20) << "record " << k;
  }
  EXPECT_EQ(at, code.data() + code.size());
  EXPECT_LT(code.size(), 16 * records.size()) << "a few bytes a record, not 80";
}

// A stream like bench/gen_tasks's: instance i (2..n) waits for the instances `deps[i]` before
// it and computes `work[i]` instructions; the main task spawns them all, then waits for n and
// computes 500 more. Sections in the order the instances ended: 2..n, the main task last.
struct Generated {
  int n = 0;
  std::vector<std::vector<int>> deps;
  std::vector<double> work;
  std::string body;
};

Generated generate(int n, unsigned seed) {
  Generated g;
  g.n = n;
  g.deps.resize(static_cast<std::size_t>(n) + 1);
  g.work.assign(static_cast<std::size_t>(n) + 1, 0);
  std::uint64_t state = seed;
  auto below = [&](std::uint64_t m) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((state >> 33) % m);
  };
  g.body = "object 1 heap 64 block\n";
  for (int i = 2; i <= n; ++i) {
    g.body += "task " + std::to_string(i) + " t" + std::to_string(i % 3) + " 1\n";
    for (int d = below(4), last = i; d > 0; --d) {
      int from = std::max(2, i - 1 - below(20));
      if (from >= last) from = last - 1;
      if (from < 2) break;
      last = from;
      g.deps[static_cast<std::size_t>(i)].push_back(from);
      g.body += "after " + std::to_string(from) + " raw 8 1\n";
    }
    g.work[static_cast<std::size_t>(i)] = 1000 + below(9000);
    g.body += "cpu " + std::to_string(static_cast<int>(g.work[static_cast<std::size_t>(i)])) +
              "\nuses 1 8 8\nendtask\n";
  }
  g.body += "task 1 main 0\n";
  for (int i = 2; i <= n; ++i) g.body += "spawn " + std::to_string(i) + "\n";
  g.body += "after " + std::to_string(n) + " raw 8 1\ncpu 500\nendtask\nend\n";
  return g;
}

TEST(TasksAtScale, ThousandsOfInstancesWithTheMainSectionLast) {
  TempDir dir;
  Generated g = generate(3000, 7);
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 1\nname = \"g\"\nranks = 1\n"
            "mips = 1.0\nkinds = [\"tasks\"]\n");
  dir.write("set/rank-0.toml",
            "rank = 0\nstatus = \"complete\"\nreason = \"\"\nopaque_calls = []\n");
  dir.write("set/tasks.0.trc", "# tareador stream v1 kind=tasks rank=0\n" + g.body);
  auto traces = trace::open_traces(dir.path("set"), {"tasks"});
  const trace::TaskSet& set = traces.at(0)->header().task_sets.at(0);
  ASSERT_EQ(set.instances.size(), 3000u);
  EXPECT_EQ(set.types, (std::vector<std::string>{"main", "t2", "t0", "t1"}));
  EXPECT_EQ(set.children(set.instance(1)).size(), 2999u);
  for (int i = 2; i <= g.n; ++i) {
    std::vector<int> from;
    for (const trace::TaskDependency& d : set.after(set.instance(i))) from.push_back(d.from);
    ASSERT_EQ(from, g.deps[static_cast<std::size_t>(i)]) << "instance " << i;
    ASSERT_EQ(set.uses(set.instance(i)).size(), 1u);
  }
  // Instance 3000's records, where they were read: its `task` line, then its afters and cpu.
  auto stream = traces[0]->open(0, 2999);
  std::uint64_t task_line = set.instance(3000).line;
  EXPECT_EQ(stream->mark(), task_line);
  Record r;
  std::size_t records = 0;
  while (stream->next(r)) EXPECT_EQ(stream->mark(), task_line + ++records);
  EXPECT_EQ(records, g.deps[3000].size() + 1);
  EXPECT_EQ(r.type, RecordType::Burst);
  EXPECT_DOUBLE_EQ(r.amount, g.work[3000]);

  // The longest path from each start: its own work, then the longest of the instances waiting
  // for it (and, for the last one, the main task's 500 instructions after its wait).
  std::vector<double> longest(static_cast<std::size_t>(g.n) + 1, 0);
  longest[static_cast<std::size_t>(g.n)] = 500;
  for (int i = g.n; i >= 2; --i) {
    longest[static_cast<std::size_t>(i)] += g.work[static_cast<std::size_t>(i)];
    for (int from : g.deps[static_cast<std::size_t>(i)])
      longest[static_cast<std::size_t>(from)] =
          std::max(longest[static_cast<std::size_t>(from)], longest[static_cast<std::size_t>(i)]);
  }
  std::vector<double> paths = trace::task_critical_paths(set, 1.0);
  ASSERT_EQ(paths.size(), 3000u);
  for (int i = 2; i <= g.n; ++i)
    ASSERT_DOUBLE_EQ(paths[static_cast<std::size_t>(i - 1)], longest[static_cast<std::size_t>(i)])
        << "instance " << i;
  double best = 0;
  for (int i = 2; i <= g.n; ++i) best = std::max(best, longest[static_cast<std::size_t>(i)]);
  EXPECT_DOUBLE_EQ(paths[0], best) << "main: spawns cost nothing, its work is after the wait";
}

}  // namespace
}  // namespace tareador
