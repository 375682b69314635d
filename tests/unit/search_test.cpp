// The offline decomposition search (search/search.h) on a hand-made recording: main writes A,
// calls produce twice (each reads A and writes its own block, B or C), then consume (reads B and
// C, writes D), then reads D. Times, costs and the search's path are worked out by hand below.
#include <gtest/gtest.h>

#include "search/search.h"
#include "test_util.h"

namespace tareador::search {
namespace {

using testing::TempDir;

// mips 1000: 1000 instructions take a microsecond.
const char* const kRecording =
    "# tareador potential v1 rank=0\n"
    "stack 7f0000000 800000000\n"
    "function 0 call main prog.c:40\n"
    "node 1 0 0 7fffff000\n"
    "work 100\n"
    "write 1000+100\n"  // A
    "function 1 call produce prog.c:10\n"
    "node 2 1 1 7ffffef00\n"
    "work 1000\n"
    "read 1000+100 7ffffee00+10\n"   // A, and its own frame
    "write 2000+100 7ffffee00+20\n"  // B, and its own frame: private
    "return 2\n"
    "node 3 1 1 7ffffef00\n"
    "work 1000\n"
    "read 1000+100 7ffffee00+10\n"  // A; the frame the previous call wrote: no edge
    "write 3000+100\n"              // C
    "return 3\n"
    "function 2 call consume prog.c:20\n"
    "node 4 1 2 7ffffef00\n"
    "work 500\n"
    "read 2000+100 3000+100\n"  // B and C
    "write 4000+100\n"          // D
    "return 4\n"
    "work 50\n"
    "read 4000+8\n"  // D: main waits for consume
    "return 1\n"
    "end\n";

CallTree recording(const TempDir& dir) {
  CallTree tree = read_call_tree(dir.write("potential.0.txt", kRecording));
  tree.mips = 1000;
  return tree;
}

TEST(SearchTest, ReadsTheCallTree) {
  TempDir dir;
  CallTree tree = recording(dir);
  ASSERT_EQ(tree.nodes.size(), 4u);
  ASSERT_EQ(tree.functions.size(), 3u);
  EXPECT_EQ(tree.functions[1].name, "produce");
  EXPECT_EQ(tree.functions[1].where, "prog.c:10");
  EXPECT_EQ(tree.nodes[0].children, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(tree.nodes[0].items, (std::vector<int>{0, -2, -3, -4, 1}));
  EXPECT_EQ(tree.nodes[0].total, 2650);
  EXPECT_EQ(tree.nodes[3].segments[0].read, (Spans{{0x2000, 0x2100}, {0x3000, 0x3100}}));
  EXPECT_EQ(tree.stack_lo, 0x7f0000000u);
  EXPECT_FALSE(tree.truncated);
}

TEST(SearchTest, MalformedRecordingsNameTheLine) {
  TempDir dir;
  auto fails = [&](const std::string& text, const std::string& where) {
    std::string path = dir.write("bad.txt", text);
    try {
      read_call_tree(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const trace::FormatError& e) {
      EXPECT_EQ(std::string(e.what()).substr(0, path.size() + where.size()), path + where)
          << e.what();
    }
  };
  const std::string head =
      "# tareador potential v1 rank=0\nstack 100 200\nfunction 0 call main -\n";
  fails("not a recording\n", ":1:");
  fails(head + "node 1 0 5 7ff\n", ":4: unknown function 5");
  fails(head + "node 1 0 0 7ff\nwork 10\nread 20+8 10+8\n", ":6: intervals must be sorted");
  fails(head + "node 1 0 0 7ff\nread 20+8\n", ":5: 'read' outside a 'work' segment");
  fails(head + "node 1 0 0 7ff\nwork x\n", ":5: instructions 'x' is not a number");
  fails(head + "node 1 0 0 7ff\nreturn 2\n", ":5: 'return' of a node that is not");
  fails("# tareador potential v1 rank=0\nfunction 0 call main -\nnode 1 0 0 7ff\n",
        ":3: a node before the 'stack' record");
  fails("# tareador potential v1 rank=0\nstack 200 100\n", ":2: the stack's high end");
  fails(head, ": no node");
}

TEST(SearchTest, TheTaskGraphOfADecomposition) {
  TempDir dir;
  CallTree tree = recording(dir);
  Decomposition d = whole_main(tree);
  d.broken[0] = true;
  auto trace = task_trace(tree, d, trace::kRaw);
  const trace::TaskSet& set = trace->header().task_sets.at(0);
  ASSERT_EQ(set.instances.size(), 4u);
  EXPECT_EQ(set.types, (std::vector<std::string>{"main", "produce", "consume"}));
  // consume waits for both produce calls; main waits for consume before its last 50
  // instructions; nothing waits on main (its A is written before the tasks exist), and the
  // second produce does not depend on the first through the frame they share.
  ASSERT_EQ(set.after(set.instances[3]).size(), 2u);
  EXPECT_EQ(set.after(set.instances[3])[0].from, 2);
  EXPECT_EQ(set.after(set.instances[3])[1].from, 3);
  EXPECT_EQ(set.after(set.instances[3])[0].bytes, 256);
  EXPECT_TRUE(set.after(set.instances[1]).empty());
  EXPECT_TRUE(set.after(set.instances[2]).empty());
  ASSERT_EQ(set.after(set.instances[0]).size(), 1u);
  EXPECT_EQ(set.after(set.instances[0])[0].from, 4);
  EXPECT_EQ(set.instances[0].instructions, 150);
  EXPECT_EQ(set.steps(set.instances[0]).back().instructions, 0);  // the wait, then 50 more
}

TEST(SearchTest, AHeapBlockAllocatedAgainIsAnotherObject) {
  // f writes a block; main frees it and allocates one at the same address, which g reads:
  // g does not depend on f (without the forget line it would).
  TempDir dir;
  const std::string head =
      "# tareador potential v1 rank=0\nstack 7f0000000 800000000\n"
      "function 0 call main -\nfunction 1 call f -\nfunction 2 call g -\n"
      "node 1 0 0 7fffff000\nwork 10\nnode 2 1 1 7ffffef00\nwork 100\nwrite 5000+40\nreturn 2\n";
  const std::string tail = "node 3 1 2 7ffffef00\nwork 100\nread 5000+8\nreturn 3\nreturn 1\nend\n";
  for (bool forget : {false, true}) {
    CallTree tree = read_call_tree(
        dir.write("potential.0.txt", head + (forget ? "forget 5000+40\n" : "") + tail));
    Decomposition d = whole_main(tree);
    d.broken[0] = true;
    auto trace = task_trace(tree, d, trace::kRaw);
    const trace::TaskSet& set = trace->header().task_sets.at(0);
    EXPECT_EQ(set.after(set.instances.at(2)).size(), forget ? 0u : 1u)
        << (forget ? "with" : "without") << " forget";
  }
}

TEST(SearchTest, NormalisedCostsFollowTheControlParameter) {
  // The thesis's example: A twice as long as B gives 0.67 / 0.33 with p = 1, 0.8 / 0.2 with 2.
  EXPECT_EQ(normalised({2, 1}, 1), (std::vector<double>{2.0 / 3, 1.0 / 3}));
  EXPECT_EQ(normalised({2, 1}, 2), (std::vector<double>{0.8, 0.2}));
  EXPECT_EQ(normalised({0, 0}, 1), (std::vector<double>{0, 0}));
}

TEST(SearchTest, CostsOfTheHandMadeDecomposition) {
  TempDir dir;
  CallTree tree = recording(dir);
  Decomposition d = whole_main(tree);
  d.broken[0] = true;
  Options options;
  options.cores = 2;
  Evaluation e = evaluate(tree, d, options);
  // 2 cores: main 100, the two produce calls side by side (1000), consume alone (500) while
  // main waits for it, main's last 50: 1650 instructions' time against 2650 on one core.
  EXPECT_EQ(e.instances, 4);
  EXPECT_NEAR(e.time, 1650e-9, 1e-15);
  EXPECT_NEAR(e.one_core_time, 2650e-9, 1e-15);
  EXPECT_NEAR(e.speedup, 2650.0 / 1650, 1e-12);
  ASSERT_EQ(e.costs.size(), 2u);
  const TypeCost& produce = e.costs[0];
  const TypeCost& consume = e.costs[1];
  EXPECT_EQ(tree.functions[static_cast<std::size_t>(produce.function)].name, "produce");
  // Eq. 6.1: the longest instance; 6.3: the most edges of one instance (consume has two);
  // 6.5: produce's instances each ran 1000 with two running, consume 500 alone.
  EXPECT_EQ(produce.length, 1000);
  EXPECT_EQ(consume.length, 500);
  EXPECT_EQ(produce.dependencies, 1);
  EXPECT_EQ(consume.dependencies, 2);
  EXPECT_NEAR(produce.concurrency, 1000e-9, 1e-15);
  EXPECT_NEAR(consume.concurrency, 500e-9, 1e-15);
  // Eqs. 6.2, 6.4, 6.6 with p1 = p2 = 1, p3 = 3.
  EXPECT_NEAR(produce.length_cost, 2.0 / 3, 1e-12);
  EXPECT_NEAR(produce.dependency_cost, 1.0 / 3, 1e-12);
  EXPECT_NEAR(produce.concurrency_cost, 8.0 / 9, 1e-12);
  EXPECT_NEAR(consume.concurrency_cost, 1.0 / 9, 1e-12);
  EXPECT_NEAR(produce.total(), 2.0 / 3 + 1.0 / 3 + 8.0 / 9, 1e-12);
  EXPECT_EQ(produce.dominant(), "concurrency");
  EXPECT_EQ(e.bottleneck, 0);
  // With p3 = 0 the concurrency cost is even (1/2 each) and p2 = 2 weighs the dependencies:
  // consume 1/3 + 4/5 + 1/2 beats produce 2/3 + 1/5 + 1/2.
  options.p3 = 0;
  options.p2 = 2;
  EXPECT_EQ(evaluate(tree, d, options).bottleneck, 1);
}

TEST(SearchTest, TheSearchBreaksBottlenecksUntilNothingIsLeft) {
  TempDir dir;
  CallTree tree = recording(dir);
  Options options;
  options.cores = 2;
  std::vector<int> seen;
  auto iterations = run(tree, options, [&](const Iteration&, int i) { seen.push_back(i); });
  // main as one task; main broken (produce the bottleneck); produce serialised (consume left,
  // waiting for both); consume serialised: sequential.
  ASSERT_EQ(iterations.size(), 4u);
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(iterations[0].tasks, (std::vector<std::string>{"main"}));
  EXPECT_EQ(iterations[1].tasks, (std::vector<std::string>{"produce", "consume"}));
  EXPECT_EQ(iterations[2].tasks, (std::vector<std::string>{"consume"}));
  EXPECT_TRUE(iterations[3].tasks.empty());
  EXPECT_EQ(iterations[0].evaluation.speedup, 1);
  EXPECT_EQ(iterations[2].evaluation.instances, 2);
  EXPECT_EQ(best(iterations), 1u);
  std::string table = csv(tree, iterations);
  EXPECT_NE(table.find("2,1.6061,4,"), std::string::npos) << table;
  EXPECT_NE(table.find(",produce,0.6667,0.3333,0.8889,concurrency\n"), std::string::npos) << table;
  auto plots = svg_plots(tree, iterations, options);
  ASSERT_EQ(plots.size(), 4u);
  EXPECT_EQ(plots[0].first, "speedup");
  EXPECT_NE(plots[0].second.find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace tareador::search
