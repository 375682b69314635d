// The annotated source (tasks/emit_source.h): the diff writer (hunks, line numbers, several
// insertions in one file), the naming of objects in depend clauses (array sections from byte
// ranges, scalars, inout), the reading of C statements, and a whole generation from a task set
// whose diff is derived by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "tasks/emit_source.h"
#include "tasks/source_text.h"
#include "test_util.h"

namespace tareador {
namespace {

using tasks::Dialect;
using tasks::Insertion;
using tasks::NamedObject;
using tasks::SourceText;
using tasks::unified_diff;

std::vector<std::string> numbered(int n) {
  std::vector<std::string> lines;
  for (int i = 1; i <= n; ++i) lines.push_back("l" + std::to_string(i));
  return lines;
}

TEST(UnifiedDiff, OneInsertionHasThreeLinesOfContextEachSide) {
  EXPECT_EQ(unified_diff("a/f.c", "b/f.c", numbered(10), {{5, "new"}}),
            "--- a/f.c\n+++ b/f.c\n@@ -2,6 +2,7 @@\n l2\n l3\n l4\n+new\n l5\n l6\n l7\n");
}

TEST(UnifiedDiff, DistantInsertionsMakeHunksWhoseNewLinesCountTheEarlierOnes) {
  // Two lines before line 3 (context 1..5), one before 15 (context 12..17): the second hunk
  // starts at new line 12 + 2.
  EXPECT_EQ(unified_diff("a/f", "b/f", numbered(17), {{3, "x1"}, {15, "y"}, {3, "x2"}}),
            "--- a/f\n+++ b/f\n"
            "@@ -1,5 +1,7 @@\n l1\n l2\n+x1\n+x2\n l3\n l4\n l5\n"
            "@@ -12,6 +14,7 @@\n l12\n l13\n l14\n+y\n l15\n l16\n l17\n");
}

TEST(UnifiedDiff, InsertionsWhoseContextsTouchShareAHunk) {
  // Before 3 (context 1..5) and before 9 (context 6..11): adjacent, one hunk 1..11.
  EXPECT_EQ(unified_diff("a", "b", numbered(12), {{3, "x"}, {9, "y"}}),
            "--- a\n+++ b\n@@ -1,11 +1,13 @@\n l1\n l2\n+x\n l3\n l4\n l5\n l6\n l7\n l8\n+y\n"
            " l9\n l10\n l11\n");
}

TEST(UnifiedDiff, AtTheStartAndAtTheEnd) {
  EXPECT_EQ(unified_diff("a", "b", numbered(2), {{1, "first"}, {3, "last"}}),
            "--- a\n+++ b\n@@ -1,2 +1,4 @@\n+first\n l1\n l2\n+last\n");
  EXPECT_EQ(unified_diff("a", "b", {}, {{1, "only"}}), "--- a\n+++ b\n@@ -0,0 +1 @@\n+only\n");
}

TEST(UnifiedDiff, AFileWithoutAFinalNewlineSaysSo) {
  EXPECT_EQ(unified_diff("a", "b", numbered(2), {{2, "x"}}, false),
            "--- a\n+++ b\n@@ -1,2 +1,3 @@\n l1\n+x\n l2\n\\ No newline at end of file\n");
  // Lines after its last line: that line gains the newline.
  EXPECT_EQ(unified_diff("a", "b", numbered(1), {{2, "x"}}, false),
            "--- a\n+++ b\n@@ -1 +1,2 @@\n-l1\n\\ No newline at end of file\n+l1\n+x\n");
}

TEST(UnifiedDiff, AReplacedLineIsRemovedThenAdded) {
  // An insertion before line 5 (context 2..7) and line 5 replaced (context 2..8): one hunk.
  EXPECT_EQ(unified_diff("a", "b", numbered(10), {{5, "x"}, {5, "new 5", true}}),
            "--- a\n+++ b\n@@ -2,7 +2,8 @@\n l2\n l3\n l4\n+x\n-l5\n+new 5\n l6\n l7\n l8\n");
}

TEST(UnifiedDiff, NothingToInsertIsNoDiff) {
  EXPECT_EQ(unified_diff("a", "b", numbered(3), {}), "");
}

TEST(ListItem, PointedBlocksAreSectionsInElements) {
  NamedObject u{"u", true, 8, 800};
  EXPECT_EQ(tasks::list_item(u, 8, 472, Dialect::OpenMP), "u[1:58]");
  EXPECT_EQ(tasks::list_item(u, 0, 800, Dialect::OpenMP), "u[0:100]");
  // Bytes that do not start or end on an element take the whole elements around them.
  EXPECT_EQ(tasks::list_item(u, 12, 17, Dialect::OpenMP), "u[1:2]");
  // OmpSs writes a length after ';' (its [lo:hi] includes hi).
  EXPECT_EQ(tasks::list_item(u, 8, 472, Dialect::OmpSs), "u[1;58]");
  EXPECT_EQ(tasks::list_item(NamedObject{"p", true, 0, 64}, 0, 64, Dialect::OpenMP), "")
      << "no element size";
}

TEST(ListItem, ArraysWholeByNameAndPartsAsSections) {
  NamedObject g{"g", false, 4, 16};
  EXPECT_EQ(tasks::list_item(g, 0, 16, Dialect::OpenMP), "g");
  EXPECT_EQ(tasks::list_item(g, 4, 12, Dialect::OpenMP), "g[1:2]");
  EXPECT_EQ(tasks::list_item(g, 5, 9, Dialect::OpenMP), "g[1:2]");
  EXPECT_EQ(tasks::list_item(NamedObject{"x", false, 8, 8}, 0, 8, Dialect::OpenMP), "x")
      << "a scalar";
  EXPECT_EQ(tasks::list_item(NamedObject{"m", false, 0, 128}, 8, 16, Dialect::OpenMP), "m")
      << "a matrix (no element size): the whole of it";
}

TEST(TaskPragma, OpenMpDependAndOmpSsClauses) {
  tasks::Clauses c;
  c.in = {"a[0:4]", "b"};
  c.out = {"c[4:4]"};
  c.inout = {"x"};
  c.firstprivate = {"n", "p"};
  EXPECT_EQ(tasks::task_pragma(c, tasks::Dialect::OpenMP),
            "#pragma omp task firstprivate(n, p) depend(in: a[0:4], b) depend(out: c[4:4]) "
            "depend(inout: x)");
  EXPECT_EQ(tasks::task_pragma(c, tasks::Dialect::OmpSs),
            "#pragma omp task firstprivate(n, p) in(a[0:4], b) out(c[4:4]) inout(x)");
  EXPECT_EQ(tasks::task_pragma({}, tasks::Dialect::OpenMP), "#pragma omp task");
}

TEST(SourceText, DeclarationsOfStatementsAndParameters) {
  SourceText s({"static double A[64]; /* { not a brace */", "int main(int argc, char** argv)", "{",
                "   double *src = u, *dst = v;", "   x = 3; const char* s = \"}\";",
                "   for (int i = 0; i < 3; i++) {", "      f(x);", "   }", "}"});
  EXPECT_EQ(s.depth_before(1), 0);
  EXPECT_EQ(s.depth_before(4), 1) << "the brace in the comment and the string do not count";
  EXPECT_EQ(s.depth_before(7), 2);
  EXPECT_EQ(s.function_body(7), 3);
  auto params = s.parameters(3);
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[1].name, "argv");
  EXPECT_EQ(params[1].stars, 2);
  auto locals = s.declarations(4, 8);
  ASSERT_EQ(locals.size(), 3u);
  EXPECT_EQ(locals[0].name, "src");
  EXPECT_EQ(locals[1].name, "dst");
  EXPECT_EQ(locals[1].base_type, "double");
  EXPECT_EQ(locals[1].stars, 1);
  EXPECT_EQ(locals[2].name, "s");
  EXPECT_EQ(locals[2].base_type, "char");
  auto global = s.global_declaration("A");
  ASSERT_TRUE(global.has_value());
  EXPECT_EQ(global->dimensions, 1);
  EXPECT_EQ(tasks::basic_type_size(global->base_type), 8);
  // The statements holding line 7 at the depth of line 4: the whole loop.
  EXPECT_EQ(s.statement_range(7, 7, 1), std::make_pair(6, 8));
}

TEST(SourceText, CxxReferencesAndTemplates) {
  SourceText s({"void f(std::vector<double>& v, double (&a)[64], const double& t, int n,",
                "       std::map<int, std::vector<int>>& m)", "{", "}"});
  auto params = s.parameters(3);
  ASSERT_EQ(params.size(), 5u);
  EXPECT_EQ(params[0].name, "v");
  EXPECT_EQ(params[0].base_type, "std::vector<double>");
  EXPECT_TRUE(params[0].reference);
  EXPECT_EQ(params[0].dimensions, 0);
  EXPECT_EQ(params[1].name, "a");
  EXPECT_TRUE(params[1].reference);
  EXPECT_EQ(params[1].dimensions, 1);
  EXPECT_EQ(params[2].name, "t");
  EXPECT_TRUE(params[2].reference);
  EXPECT_EQ(params[3].name, "n");
  EXPECT_FALSE(params[3].reference);
  EXPECT_EQ(params[4].name, "m");
  EXPECT_TRUE(params[4].reference);
  auto local = tasks::parse_declaration("std::vector<int>& row = rows[i]", 1);
  ASSERT_EQ(local.size(), 1u);
  EXPECT_EQ(local[0].name, "row");
  EXPECT_TRUE(local[0].reference);
  for (const char* statement : {"std::cout << x", "a < b", "x = a & b", "f(a) & m"})
    EXPECT_TRUE(tasks::parse_declaration(statement, 1).empty()) << statement;
}

TEST(SourceText, WhatIsNotADeclaration) {
  for (const char* statement : {"x = 3", "a[i] = 2", "*p = 1", "f(x)", "return x", "i++"})
    EXPECT_TRUE(tasks::parse_declaration(statement, 1).empty()) << statement;
  EXPECT_EQ(tasks::basic_type_size("unsigned long"), 8);
  EXPECT_EQ(tasks::basic_type_size("int32_t"), 4);
  EXPECT_EQ(tasks::basic_type_size("Tile"), 0);
}

TEST(SourceText, IdentifiersAreVariablesNotMembers) {
  // `sum` and `max` here are members: code that prints them reads `all` and `p`, not locals
  // of those names.
  EXPECT_EQ(tasks::identifiers("total = all.sum + p->max - n;"),
            (std::vector<std::string>{"total", "all", "p", "n"}));
}

// Two `produce` tasks write g[0] and g[1], a `consume` task reads them and writes g[3], and
// main reads g[3] (a taskwait) after the tasks, before tareador_OFF.
const std::vector<std::string> kProgram = {"#include \"tareador.h\"",                  // 1
                                           "int g[4];",                                // 2
                                           "int main(void)",                           // 3
                                           "{",                                        // 4
                                           "   int n = 2;",                            // 5
                                           "   tareador_ON();",                        // 6
                                           "   for (int i = 0; i < n; i++) {",         // 7
                                           "      tareador_start_task(\"produce\");",  // 8
                                           "      g[i] = i + n;",                      // 9
                                           "      tareador_end_task(\"produce\");",    // 10
                                           "   }",                                     // 11
                                           "   tareador_start_task(\"consume\");",     // 12
                                           "   g[3] = g[0] + g[1];",                   // 13
                                           "   tareador_end_task(\"consume\");",       // 14
                                           "   int r = g[3];",                         // 15
                                           "   tareador_OFF();",                       // 16
                                           "   return r;",                             // 17
                                           "}"};                                       // 18

trace::TaskSet program_set(const std::string& path) {
  trace::TaskSet set;
  set.types = {"main", "produce", "consume"};
  set.source_files = {path};
  set.objects = {{1, "global", 16, "g"}, {2, "stack", 4, "n"}};
  auto at = [](int line) { return trace::SourceSite{0, line}; };
  auto instance = [&](int id, int type, int parent, int start, int end) {
    trace::TaskInstance in;
    in.id = id;
    in.type = type;
    in.parent = parent;
    in.start_site = at(start);
    in.end_site = at(end);
    return in;
  };
  set.add_instance(instance(1, 0, 0, 6, 16));   // main
  set.add_instance(instance(2, 1, 1, 8, 10));   // produce
  set.add_instance(instance(3, 1, 1, 8, 10));   // produce
  set.add_instance(instance(4, 2, 1, 12, 14));  // consume
  set.add_spawn(1, 2, at(8));
  set.add_spawn(1, 3, at(8));
  set.add_spawn(1, 4, at(12));
  set.add_after(1, {4, trace::kRaw, 4, at(15), {}}, {1});
  set.add_use(1, {1, 4, 0, false, false, 12, 16});
  set.add_use(2, {1, 0, 4, false, false, 0, 4});
  set.add_use(2, {2, 4, 0, false, false, 0, 4});
  set.add_use(3, {1, 0, 4, false, false, 4, 8});
  set.add_use(3, {2, 4, 0, false, false, 0, 4});
  set.add_after(4, {2, trace::kRaw, 4, {}, {}}, {1});
  set.add_after(4, {3, trace::kRaw, 4, {}, {}}, {1});
  set.add_use(4, {1, 8, 4, false, false, 0, 16});
  return set;
}

TEST(EmitSource, TheProgramsPragmasDerivedByHand) {
  testing::TempDir dir;
  std::string text;
  for (const std::string& line : kProgram) text += line + "\n";
  dir.write("src/prog.c", text);
  tasks::EmitResult r = tasks::emit_source(program_set(dir.path("src/prog.c")), {});
  // g is cut where the sites' spans end (produce: bytes 0..8, consume: 0..16), so every task
  // names identical or disjoint sections; produce only writes (out), consume reads and writes
  // (inout). n is a local of main: copied into the task that uses it. The region is the loop
  // and the consume task, at the depth of tareador_ON; main's read of g[3] waits for the tasks.
  EXPECT_EQ(r.diff,
            "--- a/prog.c\n+++ b/prog.c\n@@ -4,14 +4,25 @@\n"
            " {\n"
            "    int n = 2;\n"
            "    tareador_ON();\n"
            "+   #pragma omp parallel\n"
            "+   #pragma omp single\n"
            "+   {\n"
            "    for (int i = 0; i < n; i++) {\n"
            "       tareador_start_task(\"produce\");\n"
            "+      #pragma omp task firstprivate(n) depend(out: g[0:2])\n"
            "+      {\n"
            "       g[i] = i + n;\n"
            "+      }\n"
            "       tareador_end_task(\"produce\");\n"
            "    }\n"
            "    tareador_start_task(\"consume\");\n"
            "+   #pragma omp task depend(inout: g[0:2], g[2:2])\n"
            "+   {\n"
            "    g[3] = g[0] + g[1];\n"
            "+   }\n"
            "    tareador_end_task(\"consume\");\n"
            "+   }\n"
            "+   #pragma omp taskwait\n"
            "    int r = g[3];\n"
            "    tareador_OFF();\n"
            "    return r;\n");
  EXPECT_EQ(r.root, dir.path("src"));
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("uses n on the stack"), std::string::npos) << r.notes[0];
}

// Main (tareador_ON at line `on`, _OFF at `off`) and two tasks t (lines `start` to `end`) that
// write g[0] and g[1] (or the first and second halves of `object`, while it is disabled with
// `disabled`), in file `path`.
trace::TaskSet two_tasks(const std::string& path, int on, int off, int start, int end,
                         const trace::TaskObject& object = {1, "global", 8, "g"},
                         bool disabled = false) {
  trace::TaskSet set;
  set.types = {"main", "t"};
  set.source_files = {path};
  set.objects = {object};
  for (int id = 1; id <= 3; ++id) {
    trace::TaskInstance in;
    in.id = id;
    in.type = id == 1 ? 0 : 1;
    in.parent = id == 1 ? 0 : 1;
    in.start_site = {0, id == 1 ? on : start};
    in.end_site = {0, id == 1 ? off : end};
    set.add_instance(in);
    if (id > 1) {
      set.add_spawn(1, id, {0, start});
      set.add_use(id, {1, 0, 4, disabled, false, 4 * (id - 2), 4 * (id - 1)});
    }
  }
  return set;
}

TEST(EmitSource, AReturnInsideTheRegionIsNoted) {
  testing::TempDir dir;
  dir.write("early.c",
            "int g[2];\nint main(void) {\n   tareador_ON();\n   for (int i = 0; i < 2; i++) {\n"
            "      tareador_start_task(\"t\");\n      g[i] = i;\n      tareador_end_task(\"t\");\n"
            "      if (g[i] < 0) return 1;\n   }\n   tareador_OFF();\n   return 0;\n}\n");
  tasks::EmitResult r = tasks::emit_source(two_tasks(dir.path("early.c"), 3, 10, 5, 7), {});
  bool noted = false;
  for (const std::string& n : r.notes)
    noted = noted ||
            n.find("early.c:8: a return or goto inside the parallel region") != std::string::npos;
  EXPECT_TRUE(noted) << ::testing::PrintToString(r.notes);
}

// A region whose statements start on the line of the function's opening brace: no pragma can
// go before them alone (it would go before the function).
TEST(EmitSource, ARegionOnTheLineOfTheFunctionsBraceIsRefused) {
  testing::TempDir dir;
  dir.write("oneline.c",
            "int g[2];\nint main(void) { int i; tareador_ON(); for (i = 0; i < 2; i++) {\n"
            "      tareador_start_task(\"t\");\n      g[i] = i;\n      tareador_end_task(\"t\");\n"
            "   }\n   tareador_OFF();\n   return 0;\n}\n");
  try {
    tasks::emit_source(two_tasks(dir.path("oneline.c"), 2, 7, 3, 5), {});
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("oneline.c:2: the parallel region's statements share "
                                         "this line with the function's opening brace"),
              std::string::npos)
        << e.what();
  }
}

// A global hidden by a parameter of its name where the tasks are created: the parameter is
// another object (`fill(h)`), so a stand-in names it.
TEST(EmitSource, AGlobalHiddenAtTheTaskIsAStandIn) {
  testing::TempDir dir;
  auto program = [](const std::string& parameter) {
    return "int g[2], h[2];\nvoid fill(int* " + parameter + ", int i)\n{\n" +
           "   tareador_start_task(\"t\");\n   " + parameter + "[i] = i;\n" +
           "   tareador_end_task(\"t\");\n}\nint main(void)\n{\n   tareador_ON();\n" +
           "   for (int i = 0; i < 2; i++) fill(h, i);\n   tareador_OFF();\n   return 0;\n}\n";
  };
  dir.write("hidden.c", program("g"));
  std::string diff = tasks::emit_source(two_tasks(dir.path("hidden.c"), 10, 12, 4, 6), {}).diff;
  EXPECT_NE(diff.find("#pragma omp task firstprivate(g, i) depend(out: tareador_dep_0)\n"),
            std::string::npos)
      << diff;
  dir.write("visible.c", program("p"));
  diff = tasks::emit_source(two_tasks(dir.path("visible.c"), 10, 12, 4, 6), {}).diff;
  EXPECT_NE(diff.find("firstprivate(p, i) depend(out: g)\n"), std::string::npos) << diff;
}

// A stand-in is declared where every build has it: after an #include inside `#ifdef TRACE`,
// past its #endif; but inside a conditional that holds the tasks too (an include guard), after
// the #include.
TEST(EmitSource, AStandInIsDeclaredOutsideTheConditionalsOfTheIncludes) {
  testing::TempDir dir;
  std::string program =
      "int g[2], h[2];\nvoid fill(int* g, int i)\n{\n   tareador_start_task(\"t\");\n"
      "   g[i] = i;\n   tareador_end_task(\"t\");\n}\nint main(void)\n{\n"
      "   tareador_ON();\n   for (int i = 0; i < 2; i++) fill(h, i);\n   tareador_OFF();\n"
      "   return 0;\n}\n";
  dir.write("traced.c",
            "#include <stdio.h>\n#ifdef TRACE\n#include <tareador.h>\n#endif\n" + program);
  std::string diff = tasks::emit_source(two_tasks(dir.path("traced.c"), 14, 16, 8, 10), {}).diff;
  EXPECT_NE(diff.find(" #endif\n+char tareador_dep_0 __attribute__((weak));"), std::string::npos)
      << diff;
  dir.write("guarded.c",
            "#ifndef GUARDED\n#define GUARDED\n#include <tareador.h>\n" + program + "#endif\n");
  diff = tasks::emit_source(two_tasks(dir.path("guarded.c"), 13, 15, 7, 9), {}).diff;
  EXPECT_NE(diff.find(" #include <tareador.h>\n+char tareador_dep_0 __attribute__((weak));"),
            std::string::npos)
      << diff;
}

// A heap block is named by the variable its allocation was assigned to only when nothing
// assigns that variable again (a swap would make the name another block's).
TEST(EmitSource, AHeapBlockWhosePointerIsAssignedAgainIsAStandIn) {
  testing::TempDir dir;
  auto named = [&](const std::string& after) {
    dir.write("heap.c", "int main(void)\n{\n   double* p = malloc(16);\n   double* q = p;\n" +
                            std::string("   tareador_ON();\n   for (int i = 0; i < 2; i++) {\n") +
                            "      tareador_start_task(\"t\");\n      p[i] = i;\n" +
                            "      tareador_end_task(\"t\");\n   }\n   " + after +
                            "\n   tareador_OFF();\n   return 0;\n}\n");
    std::string diff =
        tasks::emit_source(
            two_tasks(dir.path("heap.c"), 5, 12, 7, 9, {1, "heap", 16, "malloc@heap.c:3"}), {})
            .diff;
    return diff.find("depend(out: p[0:1])") != std::string::npos           ? std::string("p")
           : diff.find("depend(out: tareador_dep_0)") != std::string::npos ? std::string("stand-in")
                                                                           : diff;
  };
  EXPECT_EQ(named("q[0] = p[1];"), "p");
  EXPECT_EQ(named("*p = p[1] == 0;"), "p") << "what it points to, not the pointer";
  EXPECT_EQ(named("p = q;"), "stand-in");
  EXPECT_EQ(named("p += 1;"), "stand-in");
  EXPECT_EQ(named("q = p++;"), "stand-in");
  EXPECT_EQ(named("swap(&p, &q);"), "stand-in") << "a function may assign it";
  EXPECT_EQ(named("swap(&p[0], &q[0]);"), "p");
}

// A local of the region's function its tasks update while it is disabled (a residual the loop
// tests): the creating code waits before each later test of the loop.
TEST(EmitSource, ADisabledLocalOfTheRegionsFunctionIsWaitedForBeforeTheLoopTests) {
  testing::TempDir dir;
  dir.write("loop.c",
            "int main(void)\n{\n   double res = 1;\n   tareador_ON();\n"
            "   while (res > 0.5) {\n      res = 0;\n      tareador_start_task(\"t\");\n"
            "      res += 0.25;\n      tareador_end_task(\"t\");\n   }\n   tareador_OFF();\n"
            "   return res > 0;\n}\n");
  std::string diff =
      tasks::emit_source(two_tasks(dir.path("loop.c"), 4, 11, 7, 9, {1, "stack", 8, "res"}, true),
                         {})
          .diff;
  EXPECT_NE(diff.find("       tareador_end_task(\"t\");\n+      #pragma omp taskwait\n    }\n"),
            std::string::npos)
      << diff;
  // The region's end waits for the tasks before the return reads it.
  EXPECT_EQ(diff.find("+   #pragma omp taskwait"), std::string::npos) << diff;
}

// spawn() creates a task that reads `buffer` of spawn's frame (line 5 declares it: an alloca
// block, or a named array) through v, and returns: main calls it twice.
trace::TaskSet frame_tasks(const std::string& path, const std::string& buffer) {
  trace::TaskSet set;
  set.types = {"main", "t"};
  set.source_files = {path};
  set.objects = {{1, "stack", 64, buffer}, {2, "stack", 4, "k"}, {3, "stack", 8, "v"}};
  for (int id = 1; id <= 3; ++id) {
    trace::TaskInstance in;
    in.id = id;
    in.type = id == 1 ? 0 : 1;
    in.parent = id == 1 ? 0 : 1;
    in.start_site = {0, id == 1 ? 13 : 7};
    in.end_site = {0, id == 1 ? 15 : 9};
    set.add_instance(in);
    if (id == 1) continue;
    set.add_spawn(1, id, {0, 14});
    set.add_use(id, {1, 64, 0, false, false, 0, 64});
    set.add_use(id, {2, 4, 0, false, false, 0, 4});
  }
  return set;
}

TEST(EmitSource, ABufferOfTheCreatingFrameReachedThroughAPointerIsWaitedForBeforeItReturns) {
  auto program = [](const std::string& declaration) {
    return "void sum(int k, const int* v);\nvoid spawn(int k)\n{\n   int* v;\n" + declaration +
           "\n   v[0] = k;\n   tareador_start_task(\"t\");\n   sum(k, v);\n"
           "   tareador_end_task(\"t\");\n}\nint main(void)\n{\n   tareador_ON();\n"
           "   for (int k = 0; k < 2; k++) spawn(k);\n   tareador_OFF();\n   return 0;\n}\n";
  };
  testing::TempDir dir;
  dir.write("f.c", program("   v = alloca(64);"));
  tasks::EmitResult r = tasks::emit_source(frame_tasks(dir.path("f.c"), "alloca@f.c:5"), {});
  // No copy of the block goes into the task (v, a pointer, is copied): spawn waits for it.
  EXPECT_NE(r.diff.find("+   #pragma omp task firstprivate(k, v)\n"), std::string::npos) << r.diff;
  EXPECT_NE(r.diff.find("    tareador_end_task(\"t\");\n+   #pragma omp taskwait\n }\n"),
            std::string::npos)
      << r.diff;
  EXPECT_TRUE(std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& n) {
    return n.find(
               "uses alloca@f.c:5, on the stack of the function that creates it or of a "
               "caller, through a pointer") != std::string::npos;
  }));
  // A named array the task's code names is copied into the task (firstprivate): no wait.
  dir.write("g.c", program("   int a[16]; v = a;"));
  dir.write("h.c",
            "void sum(int k, const int* v);\nvoid spawn(int k)\n{\n   int p;\n"
            "   int v[16];\n   v[0] = k;\n   tareador_start_task(\"t\");\n"
            "   sum(k, v);\n   tareador_end_task(\"t\");\n}\nint main(void)\n{\n"
            "   tareador_ON();\n   for (int k = 0; k < 2; k++) spawn(k);\n"
            "   tareador_OFF();\n   return 0;\n}\n");
  std::string copied = tasks::emit_source(frame_tasks(dir.path("h.c"), "v"), {}).diff;
  EXPECT_EQ(copied.find("taskwait"), std::string::npos) << copied;
  // A named array the task's code does not name (it reaches it through v): waited for.
  std::string pointed = tasks::emit_source(frame_tasks(dir.path("g.c"), "a"), {}).diff;
  EXPECT_NE(pointed.find("+   #pragma omp taskwait\n }\n"), std::string::npos) << pointed;
}

// A task calls a function whose update of a disabled global creates no task: a critical
// section there, outside the task's code.
TEST(EmitSource, ADisabledUpdateInAFunctionTheTasksCallIsACriticalSection) {
  testing::TempDir dir;
  dir.write("c.c",
            "long total;\nvoid leaf(void)\n{\n   tareador_disable_object(&total);\n"
            "   total += 1;\n   tareador_enable_object(&total);\n}\nint main(void)\n{\n"
            "   tareador_ON();\n   for (int k = 0; k < 2; k++) {\n"
            "      tareador_start_task(\"t\");\n      leaf();\n      tareador_end_task(\"t\");\n"
            "   }\n   tareador_OFF();\n   return 0;\n}\n");
  tasks::EmitResult r = tasks::emit_source(
      two_tasks(dir.path("c.c"), 10, 16, 12, 14, {1, "global", 8, "total"}, true), {});
  EXPECT_NE(r.diff.find("+   #pragma omp critical\n+   {\n    tareador_disable_object(&total);\n"
                        "    total += 1;\n    tareador_enable_object(&total);\n+   }\n"),
            std::string::npos)
      << r.diff;
  EXPECT_TRUE(std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& n) {
    return n.find("in the functions it calls is a critical section") != std::string::npos;
  }));
}

// The same in a file beside the tasks' that the trace does not name: patched too, and the
// diff's names are relative to their common directory. A function defined in two files beside
// them (two versions of the program) is left alone, noted.
TEST(EmitSource, ADisabledUpdateInAFunctionOfAnotherFileIsACriticalSection) {
  testing::TempDir dir;
  std::string leaf =
      "long total;\nvoid leaf(void)\n{\n   tareador_disable_object(&total);\n"
      "   total += 1;\n   tareador_enable_object(&total);\n}\n";
  dir.write("k.c", leaf);
  dir.write("c.c",
            "extern long total;\nvoid leaf(void);\nint main(void)\n{\n   tareador_ON();\n"
            "   for (int k = 0; k < 2; k++) {\n      tareador_start_task(\"t\");\n"
            "      leaf();\n      tareador_end_task(\"t\");\n   }\n   tareador_OFF();\n"
            "   return 0;\n}\n");
  trace::TaskSet set = two_tasks(dir.path("c.c"), 5, 11, 7, 9, {1, "global", 8, "total"}, true);
  std::string diff = tasks::emit_source(set, {}).diff;
  EXPECT_NE(diff.find("--- a/k.c\n+++ b/k.c\n"), std::string::npos) << diff;
  EXPECT_NE(diff.find("--- a/c.c\n+++ b/c.c\n"), std::string::npos) << diff;
  EXPECT_NE(diff.find("+   #pragma omp critical\n+   {\n    tareador_disable_object(&total);\n"),
            std::string::npos)
      << diff;
  dir.write("k2.c", leaf);
  tasks::EmitResult r = tasks::emit_source(set, {});
  EXPECT_EQ(r.diff.find("omp critical"), std::string::npos) << r.diff;
  EXPECT_NE(::testing::PrintToString(r.notes).find("the tasks call leaf, defined in several files"),
            std::string::npos)
      << ::testing::PrintToString(r.notes);
}

TEST(EmitSource, AReadInAnInlinedFunctionWaitsAfterTheLastCreation) {
  testing::TempDir dir;
  std::string text;
  for (const std::string& line : kProgram) text += line + "\n";
  dir.write("prog.c", text);
  trace::TaskSet set = program_set(dir.path("prog.c"));
  std::string expected = tasks::emit_source(set, {}).diff;
  // The debug information gives the inlined function's line (here: outside main): the taskwait
  // goes after the statement that created the last task before the read, consume (line 14).
  set.after(set.instance(1))[0].site = trace::SourceSite{0, 2};
  EXPECT_EQ(tasks::emit_source(set, {}).diff, expected);
  EXPECT_NE(expected.find("+   }\n+   #pragma omp taskwait\n    int r = g[3];\n"),
            std::string::npos)
      << expected;
}

TEST(EmitSource, OmpSsDialect) {
  testing::TempDir dir;
  std::string text;
  for (const std::string& line : kProgram) text += line + "\n";
  dir.write("prog.c", text);
  tasks::EmitOptions options;
  options.dialect = tasks::Dialect::OmpSs;
  std::string diff = tasks::emit_source(program_set(dir.path("prog.c")), options).diff;
  // OmpSs sections give a length after ';' (g[2:2] would be g[2] alone there).
  EXPECT_NE(diff.find("+      #pragma omp task firstprivate(n) out(g[0;2])\n"), std::string::npos)
      << diff;
  EXPECT_NE(diff.find("+   #pragma omp task inout(g[0;2], g[2;2])\n"), std::string::npos) << diff;
}

TEST(EmitSource, SourcesFoundInSourceDirAndErrorsNameTheLine) {
  testing::TempDir dir;
  std::string text;
  for (const std::string& line : kProgram) text += line + "\n";
  dir.write("moved/prog.c", text);
  tasks::EmitOptions options;
  options.source_dir = dir.path("moved");
  trace::TaskSet set = program_set("/nonexistent/build/prog.c");
  EXPECT_EQ(tasks::emit_source(set, options).root, dir.path("moved"));
  // A task that starts and ends on one line (a macro) cannot be made a task.
  set.instances[3].end_site = set.instances[3].start_site;
  try {
    tasks::emit_source(set, options);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/build/prog.c:12: task consume starts and "
                                         "ends on one line"),
              std::string::npos)
        << e.what();
  }
  trace::TaskSet old = program_set("prog.c");
  for (trace::TaskInstance& in : old.instances) in.start_site = in.end_site = {};
  EXPECT_THROW(tasks::emit_source(old, options), std::runtime_error) << "no source lines";
}

// Main calls a recursive `scan` (line 15) whose two "half" tasks (lines 5-7 and 8-10) call it
// again; traced on a small input, the halves created no task (the recursion stopped under them).
trace::TaskSet halves_set(const std::string& path) {
  trace::TaskSet set;
  set.types = {"main", "half"};
  set.source_files = {path};
  set.objects = {{1, "global", 16, "g"}};
  for (int id = 1; id <= 3; ++id) {
    trace::TaskInstance in;
    in.id = id;
    in.type = id == 1 ? 0 : 1;
    in.parent = id == 1 ? 0 : 1;
    in.start_site = {0, id == 1 ? 14 : 3 * id - 1};
    in.end_site = {0, id == 1 ? 16 : 3 * id + 1};
    set.add_instance(in);
    if (id > 1) {
      set.add_spawn(1, id, {0, 15});
      set.add_use(id, {1, 4, 4, false, false, 8 * (id - 2), 8 * (id - 1)});
    }
  }
  return set;
}

const char* const kHalves =
    "int g[4];\n"                                           // 1
    "void scan(int* v, int n)\n"                            // 2
    "{\n"                                                   // 3
    "   if (n <= 2) { v[1] += v[0]; return; }\n"            // 4
    "   tareador_start_task(\"half\");\n"                   // 5
    "   scan(v, n / 2);\n"                                  // 6
    "   tareador_end_task(\"half\");\n"                     // 7
    "   tareador_start_task(\"half\");\n"                   // 8
    "   CALL;\n"                                            // 9
    "   tareador_end_task(\"half\");\n"                     // 10
    "}\n"                                                   // 11
    "int main(void)\n"                                      // 12
    "{\n"                                                   // 13
    "   tareador_ON();\n"                                   // 14
    "   scan(g, 4);\n"                                      // 15
    "   tareador_OFF();\n"                                  // 16
    "   return 0;\n"                                        // 17
    "}\n"                                                   // 18
    "void combine(int* v, int n) { v[n - 1] += v[0]; }\n";  // 19

// A task whose code calls a function that creates tasks waits for them at its end, though its
// instances created none in the traced run: on a larger input they do.
TEST(EmitSource, ATaskWhoseCodeCanCreateTasksWaitsForThemAtItsEnd) {
  testing::TempDir dir;
  auto emit = [&](const std::string& call) {
    std::string text = kHalves;
    text.replace(text.find("CALL"), 4, call);
    dir.write("scan.c", text);
    return tasks::emit_source(halves_set(dir.path("scan.c")), {});
  };
  auto waits = [](const std::string& diff, const std::string& line) {
    return diff.find("    " + line + "\n+   #pragma omp taskwait\n+   }\n") != std::string::npos;
  };
  tasks::EmitResult r = emit("scan(v + n / 2, n - n / 2)");
  EXPECT_TRUE(waits(r.diff, "scan(v, n / 2);")) << r.diff;
  EXPECT_TRUE(waits(r.diff, "scan(v + n / 2, n - n / 2);")) << r.diff;
  EXPECT_NE(::testing::PrintToString(r.notes).find(
                "scan.c:5: task half calls scan, which creates tasks (none under it in the "
                "traced run)"),
            std::string::npos)
      << ::testing::PrintToString(r.notes);
  // Through another function: `apply` calls scan.
  r = emit("apply(v, n)");
  EXPECT_FALSE(waits(r.diff, "apply(v, n);")) << "no apply in the sources: " << r.diff;
  std::string text = kHalves;
  text.replace(text.find("CALL"), 4, "apply(v, n)");
  dir.write("scan.c", text + "void apply(int* v, int n) { if (n > 2) scan(v, n); }\n");
  r = tasks::emit_source(halves_set(dir.path("scan.c")), {});
  EXPECT_TRUE(waits(r.diff, "apply(v, n);")) << r.diff;
  // A function that creates no task: no wait.
  r = emit("combine(v, n)");
  EXPECT_FALSE(waits(r.diff, "combine(v, n);")) << r.diff;
}

// A program that already has its OpenMP pragmas: no second region in its region, no task
// around its task (or inside the task that holds the annotations), and a note for each.
TEST(EmitSource, TheProgramsOwnParallelRegionAndTasksAreKept) {
  testing::TempDir dir;
  dir.write("own.c",
            "int g[2];\nint main(void)\n{\n   tareador_ON();\n#pragma omp parallel\n"  // 1-5
            "   #pragma omp single nowait\n   for (int i = 0; i < 2; i++) {\n"         // 6-7
            "      tareador_start_task(\"t\");\n      #pragma omp task if(i > 0)\n"    // 8-9
            "      g[i] = i;\n      tareador_end_task(\"t\");\n   }\n"                 // 10-12
            "   tareador_OFF();\n   return 0;\n}\n");                                  // 13-15
  tasks::EmitResult r = tasks::emit_source(two_tasks(dir.path("own.c"), 4, 13, 8, 11), {});
  EXPECT_EQ(r.diff, "");
  std::string notes = ::testing::PrintToString(r.notes);
  EXPECT_NE(notes.find("own.c:5: the code that creates the tasks is already in the program's "
                       "parallel region: no parallel region added"),
            std::string::npos)
      << notes;
  EXPECT_NE(notes.find("own.c:9: task t is already an OpenMP task in the source: no task pragma "
                       "added (the trace's would be `#pragma omp task "
                       "depend(out: g)`)"),
            std::string::npos)
      << notes;
  // The region over a block that holds the loop; the annotations inside the program's task.
  dir.write("held.c",
            "int g[2];\nint main(void)\n{\n   tareador_ON();\n   #pragma omp parallel\n"  // 1-5
            "   {\n   #pragma omp single\n   for (int i = 0; i < 2; i++) {\n"             // 6-8
            "      #pragma omp task\n      {\n      tareador_start_task(\"t\");\n"        // 9-11
            "      g[i] = i;\n      tareador_end_task(\"t\");\n      }\n   }\n   }\n"     // 12-16
            "   tareador_OFF();\n   return 0;\n}\n");                                     // 17-19
  r = tasks::emit_source(two_tasks(dir.path("held.c"), 4, 17, 11, 13), {});
  EXPECT_EQ(r.diff, "");
  notes = ::testing::PrintToString(r.notes);
  EXPECT_NE(notes.find("held.c:5: the code that creates"), std::string::npos) << notes;
  EXPECT_NE(notes.find("held.c:9: task t is already an OpenMP task"), std::string::npos) << notes;
  // `cancel parallel` is no region, `taskwait` no task.
  dir.write("not.c",
            "int g[2];\nint main(void)\n{\n   tareador_ON();\n   #pragma omp cancel parallel\n"
            "   for (int i = 0; i < 2; i++) {\n      tareador_start_task(\"t\");\n"
            "      #pragma omp taskwait\n      g[i] = i;\n      tareador_end_task(\"t\");\n   }\n"
            "   tareador_OFF();\n   return 0;\n}\n");
  r = tasks::emit_source(two_tasks(dir.path("not.c"), 4, 12, 7, 10), {});
  EXPECT_NE(r.diff.find("+   #pragma omp parallel\n"), std::string::npos) << r.diff;
  EXPECT_NE(r.diff.find("+      #pragma omp task depend(out: g)\n"), std::string::npos) << r.diff;
}

// A task's start inside `#ifdef TRACE`: its pragma and brace go after the `#endif`, so that the
// OpenMP build without TRACE has the task and its braces match.
TEST(EmitSource, PragmasGoOutsideThePreprocessorConditionals) {
  testing::TempDir dir;
  dir.write("cond.c",
            "int g[2];\nint main(void)\n{\n   tareador_ON();\n"                   // 1-4
            "   for (int i = 0; i < 2; i++) {\n#ifdef TRACE\n"                    // 5-6
            "      tareador_start_task(\"t\");\n#endif\n      g[i] = i;\n"        // 7-9
            "#if defined(TRACE) && 1\n      tareador_end_task(\"t\");\n#endif\n"  // 10-12
            "   }\n   tareador_OFF();\n   return 0;\n}\n");                       // 13-16
  tasks::EmitResult r = tasks::emit_source(two_tasks(dir.path("cond.c"), 4, 14, 7, 11), {});
  EXPECT_NE(r.diff.find("       tareador_start_task(\"t\");\n #endif\n"
                        "+      #pragma omp task depend(out: g)\n+      {\n"
                        "       g[i] = i;\n+      }\n #if defined(TRACE) && 1\n"),
            std::string::npos)
      << r.diff;
  EXPECT_NE(::testing::PrintToString(r.notes).find(
                "cond.c:7: the task t starts or ends inside a preprocessor conditional"),
            std::string::npos)
      << ::testing::PrintToString(r.notes);
  // All of the task's code in the conditional: no task, said so.
  dir.write("all.c",
            "int g[2];\nint main(void)\n{\n   tareador_ON();\n"
            "   for (int i = 0; i < 2; i++) {\n      tareador_start_task(\"t\");\n#ifdef TRACE\n"
            "      g[i] = i;\n      tareador_end_task(\"t\");\n#endif\n"
            "   }\n   tareador_OFF();\n   return 0;\n}\n");
  r = tasks::emit_source(two_tasks(dir.path("all.c"), 4, 12, 6, 9), {});
  EXPECT_EQ(r.diff.find("omp task"), std::string::npos) << r.diff;
  EXPECT_NE(::testing::PrintToString(r.notes).find(
                "all.c:6: the task t starts and ends in different branches"),
            std::string::npos)
      << ::testing::PrintToString(r.notes);
}

TEST(SourceText, BranchesOfThePreprocessorConditionals) {
  SourceText s({"a;", "#ifdef X", "b;", "#if Y", "c;", "#endif", "#else", "d;", "#endif", "e;"});
  using Points = std::optional<std::pair<int, int>>;
  EXPECT_EQ(s.same_branch(1, 11), (Points{{1, 11}})) << "no conditional between";
  EXPECT_EQ(s.same_branch(4, 11), (Points{{10, 11}})) << "past the #endif of #ifdef X";
  EXPECT_EQ(s.same_branch(1, 6), (Points{{1, 2}})) << "before the #ifdef";
  EXPECT_EQ(s.same_branch(5, 6), (Points{{5, 6}})) << "in one branch";
  EXPECT_EQ(s.same_branch(3, 6), (Points{{3, 4}})) << "before the inner #if";
  EXPECT_EQ(s.same_branch(3, 8), Points{}) << "#ifdef X and its #else: they would cross";
}

TEST(SourceText, DirectivesAndWhereTheirConditionalsEnd) {
  SourceText s({"#include <a.h>", "#ifdef X", "#  include <b.h>", "#if Y", "c;", "#endif", "#endif",
                "e;", "#if Z", "f;"});
  EXPECT_EQ(s.directive(1), "include");
  EXPECT_EQ(s.directive(3), "include") << "blanks after the #";
  EXPECT_EQ(s.directive(5), "");
  EXPECT_EQ(s.outside_conditionals(1), 1) << "in no conditional";
  EXPECT_EQ(s.outside_conditionals(3), 7) << "the #endif of #ifdef X";
  EXPECT_EQ(s.outside_conditionals(5), 7) << "the outermost conditional's";
  EXPECT_EQ(s.outside_conditionals(8), 8);
  EXPECT_EQ(s.outside_conditionals(10), 0) << "an #if without #endif";
}

TEST(SourceText, FunctionNamesCallsAndOpenMpPragmas) {
  EXPECT_EQ(SourceText({"void f(int a) {", "}"}).function_name(1), "f");
  EXPECT_EQ(SourceText({"int f(int a);", "struct S {", "};"}).function_name(2), "")
      << "a structure after a prototype";
  EXPECT_EQ(tasks::called_names("if (f(x)) y = s.g(sizeof(z)) + h (1);"),
            (std::vector<std::string>{"f", "g", "h"}));
  EXPECT_EQ(SourceText({"a;"}).openmp_words(1), std::vector<std::string>{});
  EXPECT_EQ(SourceText({"  #  pragma omp parallel for num_threads(4)"}).openmp_words(1),
            (std::vector<std::string>{"parallel", "for"}));
}

// The version 3 and 4 records the generator reads: sites, spans and temporaries, through the
// reader.
const trace::TaskSet& read_set(const testing::TempDir& dir, const std::string& stream,
                               std::unique_ptr<trace::Trace>& keep) {
  dir.write("set/manifest.toml",
            "format = \"tareador-trace-set\"\nversion = 4\nname = \"t\"\nranks = 1\n"
            "mips = 1.0\nkinds = [\"tasks\"]\n");
  dir.write("set/rank-0.toml", "rank = 0\nstatus = \"complete\"\nopaque_calls = []\n");
  dir.write("set/tasks.0.trc", "# tareador stream v1 kind=tasks rank=0\n" + stream);
  keep = std::move(trace::open_traces(dir.path("set"), {"tasks"}).front());
  return keep->header().task_sets.front();
}

TEST(SourceSites, TheReaderKeepsSitesAndSpans) {
  testing::TempDir dir;
  std::unique_ptr<trace::Trace> trace;
  const trace::TaskSet& set = read_set(dir,
                                       "object 1 heap 1024 malloc@sort.c:20\n"
                                       "object 2 heap 64 malloc@sort.c:32\n"
                                       "task 2 sort 1 /src/sort.c:31 /src/sort.c:33\n"
                                       "uses 1 0 512 disabled span 8 520\n"
                                       "uses 2 64 64 local span 0 64\n"
                                       "endtask\n"
                                       "task 1 main 0 \"/src dir/main.c:10\" -\n"
                                       "spawn 2 /src/sort.c:31\n"
                                       "after 2 raw 512 1 /src/sort.c:40\n"
                                       "uses 1 512 0\n"
                                       "endtask\nend\n",
                                       trace);
  ASSERT_EQ(set.source_files, (std::vector<std::string>{"/src/sort.c", "/src dir/main.c"}));
  const trace::TaskInstance& sort = set.instance(2);
  EXPECT_EQ(sort.start_site.file, 0);
  EXPECT_EQ(sort.start_site.line, 31);
  EXPECT_EQ(sort.end_site.line, 33);
  EXPECT_TRUE(set.uses(sort)[0].disabled);
  EXPECT_EQ(set.uses(sort)[0].span_first, 8);
  EXPECT_EQ(set.uses(sort)[0].span_end, 520);
  EXPECT_FALSE(set.uses(sort)[0].local);
  EXPECT_TRUE(set.uses(sort)[1].local);
  EXPECT_EQ(set.uses(sort)[1].span_end, 64);
  const trace::TaskInstance& main = set.instance(1);
  EXPECT_EQ(main.start_site.file, 1);
  EXPECT_EQ(main.start_site.line, 10);
  EXPECT_FALSE(main.end_site.known());
  ASSERT_EQ(set.spawn_sites(main).size(), 1u);
  EXPECT_EQ(set.spawn_sites(main)[0].line, 31);
  EXPECT_EQ(set.after(main)[0].site.line, 40);
  EXPECT_EQ(set.uses(main)[0].span_end, 0) << "no span: not known";
}

TEST(SourceSites, TheReaderMarksACallersLocal) {
  // Instance 2 reaches main's `m` from the function that created it (`outer`): the object is a
  // caller's, shared; `n`, a local of that function, stays one.
  testing::TempDir dir;
  std::unique_ptr<trace::Trace> trace;
  const trace::TaskSet& set = read_set(dir,
                                       "object 1 stack 512 m\n"
                                       "object 2 stack 4 n\n"
                                       "task 2 row 1\n"
                                       "uses 1 64 64 outer span 64 128\n"
                                       "uses 2 4 0\n"
                                       "endtask\n"
                                       "task 1 main 0\nspawn 2\nendtask\nend\n",
                                       trace);
  EXPECT_TRUE(set.uses(set.instance(2))[0].outer);
  EXPECT_EQ(set.uses(set.instance(2))[0].span_end, 128);
  EXPECT_FALSE(set.uses(set.instance(2))[1].outer);
  EXPECT_TRUE(set.object(1)->caller);
  EXPECT_FALSE(set.object(2)->caller);
}

TEST(SourceSites, BadSitesAndSpansNameTheirLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"task 1 main 0 main.c:0 -\n",
       "tasks.0.trc:3: field 'start site' 'main.c:0' is not FILE:LINE"},
      {"task 1 main 0 main.c -\n", "tasks.0.trc:3: field 'start site' 'main.c' is not"},
      {"task 1 main 0\nuses 1 8 0 span 8 8\n", "tasks.0.trc:4: span 8 8 is not a range of offsets"},
      {"task 1 main 0\nuses 1 8 0 span 0 17\n", "within object 1 (16 bytes)"},
      {"task 1 main 0\nuses 1 8 0 spam 0 1\n",
       "'uses' takes 'disabled', 'local', 'outer' and 'span FIRST END'"},
      {"task 1 main 0\nuses 1 8 0 local disabled\n",
       "'uses' takes 'disabled', 'local', 'outer' and"},
      {"task 1 main 0\nuses 1 8 0 outer\n",
       "tasks.0.trc:4: 'outer' on a global object (only a stack object lies in a caller's frame)"}};
  for (const auto& [stream, message] : cases) {
    testing::TempDir dir;
    std::unique_ptr<trace::Trace> trace;
    try {
      read_set(dir, std::string("object 1 global 16 g\n") + stream + "endtask\nend\n", trace);
      ADD_FAILURE() << "accepted: " << stream;
    } catch (const trace::FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace tareador
