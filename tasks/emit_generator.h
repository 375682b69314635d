// emit_generator.h — the generator of the annotated source (emit_source.h), internal to tasks/:
// its member functions are in emit_source.cpp (the sites, the locals, the objects and their
// names, the diff), emit_regions.cpp (the taskwaits, the parallel region, the declarations
// moved before the blocks the diff adds) and emit_program.cpp (what the program's text says
// beyond the trace: the tasks that can create tasks, its own OpenMP pragmas, its conditionals).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tasks/emit_source.h"
#include "tasks/source_text.h"

namespace tareador::tasks::emit_detail {

namespace fs = std::filesystem;
using trace::SourceSite;
using trace::TaskSet;

// What goes before a line, in this order when several things do (a region ends before the
// line after its last statement, where a taskwait after it may go; a critical section is
// inside its task).
enum class Place {
  RegionClose,
  RegionOpen,
  TaskOpen,
  CriticalClose,
  Taskwait,
  CriticalOpen,
  TaskClose
};

struct Pending {
  int before;
  Place place;
  std::size_t sequence;
  std::string text;
  bool replaces = false;  // the new text of line `before`
};

// The instances made by one call site: the code between one tareador_start_task and its
// tareador_end_task.
struct TaskSite {
  int file = 0, start = 0, end = 0;
  std::vector<int> instances;
  bool creates = false;  // its instances create tasks, or its code calls what does
  std::string type;
};

// What the instances of one site do to one object.
struct SiteUse {
  std::int64_t first = 0, end = 0;
  bool read = false, written = false;
};

using SiteKey = std::pair<int, int>;  // file, start line

class Generator {
 public:
  Generator(const TaskSet& set, const EmitOptions& options) : set_(set), options_(options) {}

  EmitResult run();

 private:
  // ---- Sources -------------------------------------------------------------------------------

  const SourceText& text(int file);

  // The path of a file: the trace's, or one of other_files_ (numbered after them).
  const std::string& source_name(int file) const;

  std::string where(int file, int line) const;

  void insert(int file, int before, Place place, const std::string& text);
  void replace(int file, int line, const std::string& text);

  // ---- Tasks ---------------------------------------------------------------------------------

  void collect_sites();

  void place_task(const TaskSite& site);

  // ---- What the program's text says (emit_program.cpp) ---------------------------------------

  // Marks as creating tasks the sites whose code calls, directly or through the functions of
  // the sources, a function that creates tasks (holds a task's start, calls
  // tareador_start_task, or is called by a statement through which the trace saw a task
  // created), with a note for each the trace alone did not show.
  void find_creating_sites();

  // The first line of the statement whose block holds `line`, or 0 for a statement of the
  // function's body.
  static int enclosing_statement(const SourceText& source, int line);

  // The line of the program's own `#pragma omp DIRECTIVE` that applies to the statement that
  // starts at `line` (between it and the statement before), or 0. "parallel" matches any
  // parallel construct (`parallel for`), but not `cancel parallel`.
  static int pragma_before(const SourceText& source, int line, const std::string& directive);

  // The line of the program's own `#pragma omp parallel` over the statement at `first`, or over
  // a statement that holds it in its function; 0 when none.
  int program_parallel(int file, int first);

  // The line of the program's own `#pragma omp task` over the site's code (in it, at its
  // depth), or over the block that holds the site's annotations; 0 when none.
  int program_task(const TaskSite& site);

  // Moves the points a block opens and closes at (before lines `open` and `close`) out of the
  // preprocessor conditionals that hold one and not the other (a `tareador_start_task` inside
  // `#ifdef TRACE`), with a note naming `line`; false, with a note, when it cannot be.
  bool in_one_branch(int file, int& open, int& close, const std::string& block, int line);

  // The code of a task between tareador_disable_object and tareador_enable_object (an
  // accumulator's update: what the parallel version must do one task at a time) becomes a
  // critical section: the whole statements that hold each outermost pair, when they are inside
  // the task, have no atomic or critical of their own, and the task creates no tasks. Whether
  // it made one.
  bool place_critical_sections(const TaskSite& site);

  // The same for the pairs outside every task's code, in the files of the tasks and in those
  // of the functions they call (called_files), when tasks update disabled objects (a recursive
  // task tree's leaves add into a total in the function the tasks call): the updates of all of
  // them are one task's at a time. Not around code that creates tasks (a task would wait
  // inside the section for children that need it).
  void place_called_critical_sections();

  // The files the trace does not name (it has the lines of the annotations, not of the code
  // the tasks call) that define the functions the tasks' code calls, directly or not
  // (`histo_block` in kern.c, called by the tasks of main.c): among the C and C++ sources in
  // the directories of the tasks' files. A function defined in several of them (versions of
  // one program side by side) is looked for in none, noted.
  std::set<int> called_files();

  // The whole statements that hold each outermost tareador_disable_object ...
  // tareador_enable_object pair of lines [from, to), a pair in one function.
  static std::vector<std::pair<int, int>> disabled_updates(const SourceText& source, int from,
                                                           int to);

  // A critical section around the statements [first, last], unless they have an atomic or
  // critical of their own or cannot hold one; whether it placed it.
  bool place_critical(int file, int first, int last);

  // The creating function's variables the task's code uses, declared in blocks still open at
  // the task (not in a block closed before it: `{ int i; ... }` of an earlier loop).
  static std::vector<Declaration> locals_used(const SourceText& source, const TaskSite& site);

  // Whether declaration `d` is in scope at line `line` (after it): no block it is in closes
  // from its line to that one.
  static bool in_scope(const SourceText& source, const Declaration& d, int line);

  // A local of a function, by its file, the line of its function's body and its name.
  using LocalKey = std::tuple<int, int, std::string>;

  LocalKey local_key(const TaskSite& site, const std::string& name);

  // The creating code's locals tasks write that must be shared, not copied into the tasks (the
  // writes would be lost), each with whether the depend clauses order it (not when disabled:
  // an accumulator's updates need atomic and a taskwait, as the notes say). Shared are those
  // the creating code reads afterwards (a result: `residual = step(u, n)`, where a taskwait
  // goes before the read), those updated while disabled (no read waits for them: outside the
  // region's function, a taskwait goes before the code after the tasks reads them or returns),
  // and, in the function that holds the parallel region (whose locals outlive it), those a
  // sibling task reads or the code after
  // tareador_OFF reads. Others stay copies: shared, a local of a function that may return
  // before its tasks run would be gone.
  void find_shared_locals();

  // The stack objects the site's instances use that no variable of the task's code copies
  // (firstprivate): an alloca block, a caller's array passed by pointer. They are reached
  // through pointers, which are copied, so the function that creates the tasks must not return
  // before they end (wait_for_disabled, with the pointers' names). Not those of the region's
  // function, whose frame outlives the region, nor those shared already (find_shared_locals).
  void find_frame_buffers();

  // Of the variables the site's code uses, those shared (find_shared_locals) are shared and in
  // its depend clauses (out or inout where it writes them, in where it only reads them); the
  // others are copied (arrays by default, not named: a copy of each is what they would get),
  // but C++ references, shared.
  void share_locals(const TaskSite& site, const std::vector<Declaration>& used, Clauses& clauses);

  // Whether each instance of the site uses its own part of the local array `name` and no other
  // site of the function uses it (`partial[b]` of block b): then the tasks need no order among
  // them (one pragma names the whole array for all of them, which would serialise them), only
  // the taskwait before the code that reads it.
  bool elements_apart(const TaskSite& site, const std::string& name);

  // Whether the site is in the function that holds tareador_ON (the parallel region's).
  bool in_region_function(const TaskSite& site);

  // Whether the code after tareador_OFF in the function that holds the site reads `name` before
  // it writes it (a loop counter set again, `for (i = 0; ...)`, does not need the task's; an
  // assignment that reads it, `total = total / n`, does).
  bool read_after_tracing(const TaskSite& site, const std::string& name);

  // ---- Objects and clauses -------------------------------------------------------------------

  // Each item once, in the clause of what the site's instances do to it (a stand-in may
  // stand for several objects).
  Clauses clauses_of(const TaskSite& site);

  // The uses of an instance and of the tasks it creates, directly or not: a task's clauses
  // order it with its siblings for all of them. Heap blocks one of them allocated and freed
  // (TaskUse::local) are the subtree's own temporaries, in no clause; the stack the tasks it
  // creates use is theirs or their callers' (the instance's code: its own locals).
  std::vector<const trace::TaskUse*> subtree_uses(int id) const;

  const std::map<int, SiteUse>& site_uses(const TaskSite& site);

  // Whether a use belongs in the clauses: the program's heap blocks and globals do; what is
  // left out is noted once per object.
  bool counts(const trace::TaskObject& o, const trace::TaskUse& u, const TaskSite& site);

  void note_once(const std::string& key, const std::string& note);

  // The list items of `object` for a site: the pieces of it the site touches, cut where any
  // site's span begins or ends, so that every task names identical or disjoint storage (as
  // OpenMP requires of the items of sibling tasks).
  std::vector<std::string> items_for(int object, const SiteUse& use);

  // The pieces of an object: cut at every site's span ends (whole elements), adjacent pieces
  // used by the same sites joined.
  std::vector<std::pair<std::int64_t, std::int64_t>> pieces(int object, const NamedObject& named);

  const NamedObject& name_of(int object);

  // A heap block by the variable its allocation was assigned to (`double* u = malloc(..)`),
  // when no other block the tasks use was allocated there.
  NamedObject heap_name(const trace::TaskObject& o);

  // A caller's local (TaskObject::caller: `main`'s `double v[N]` passed down) by the pointer
  // every site that uses it reaches it through: a parameter or local of the site's function
  // of the object's own name (`scale(double* v, ..)`), of one dimension (a matrix's rows would
  // be sections of a size the source does not give), never assigned there; or by a C++
  // reference of its name, whole (`std::vector<double>& v`).
  NamedObject caller_name(const trace::TaskObject& o);

  // Whether the variable `d`, assigned the block allocated at `line`, may point elsewhere later:
  // it is assigned anywhere else in its scope (a local's block, a global's file and the files of
  // the task sites), or its address is taken (`t = img; img = tmp;` swaps buffers: the name
  // would then be the other block). Its declaration's initialiser does not count.
  bool assigned_again(int file, const Declaration& d, int line);

  // Whether `code` assigns to the variable `name` (`=`, `+=`, `-=`, `++`, `--`), or takes its
  // address (`&name`, which a function may assign through).
  static bool assigns(const std::string& code, const std::string& name);

  // The variable the statement at `line` declares or assigns to.
  static std::optional<Declaration> assigned_variable(const SourceText& source, int line);

  // A global by its symbol, with the element size its declaration gives (one-dimensional
  // arrays only: sections of the first dimension of a matrix would count rows).
  NamedObject global_name(const trace::TaskObject& o);

  // Whether the name is in scope at every task site that uses the object, and is the variable
  // declared there (not a parameter or local of the same name that hides it).
  bool visible_everywhere(int object, const NamedObject& named);

  // Whether `d` is a file-scope declaration (a parameter's line is at depth 0 too).
  static bool file_scope(const SourceText& source, const Declaration& d);

  // Whether another variable of d's name hides it at `line`: a parameter of the function holding
  // the line, or a local in scope there declared after d (`copy(double *x)` of a global x).
  static bool hidden_at(const SourceText& source, const Declaration& d, int line);

  // An object the source cannot name where the tasks are made: a variable of its own stands
  // for it (for every block of its allocation site), declared at the top of each file that
  // uses it, weak so that the files' declarations are one variable (sibling tasks created in
  // two files must name the same one to be ordered).
  NamedObject stand_in(const trace::TaskObject& o);

  void declare_stand_in(int file, const std::string& name, const std::string& object);

  // The sites that use each object.
  const std::map<int, std::set<SiteKey>>& users();

  // ---- Taskwaits and the parallel region -----------------------------------------------------

  // Where an instance's own code first reads what a task it created produced: at the line the
  // trace gives, when it is code of the function that created the tasks, after their creation;
  // else (the read is in a function inlined there, whose lines the debug information gives)
  // right after the statement that created the last task before the read.
  void place_taskwaits();

  // A task that reads what earlier tasks updated while it was disabled (a reduction: the trace
  // orders the read after them, but no depend clause does, and in() would not next to atomic
  // updates; the report's [reduction-read]): its creator waits for them before it creates it,
  // when they are its children or theirs (a task waits for its children at its end).
  void wait_before_reduction_readers();

  // The waits for the disabled locals `names` the site's tasks write (no read the trace saw
  // waits for them), or for the tasks that use buffers of the creating frame through the
  // pointers `names` (find_frame_buffers): before the last line of each loop holding the site
  // whose code names one (its next test or turn reads it). In the region's function, before
  // the first statement of the region after the site that names one (the region's end waits
  // for the rest). Elsewhere (the function's frame must outlive the tasks): before each return
  // in the statement that holds the site (a loop that creates the tasks may return on a later
  // turn), then before the first statement after it that names one of them or returns, else at
  // the function's end.
  void wait_for_disabled(const TaskSite& site, const std::set<std::string>& names);

  bool in_task_code(int file, int line) const;

  // Where a wait for a read at `at` goes: there, or, when `at` is the head of a `while` or
  // `for` loop (its condition reads the result), before the loop's last line, so that every
  // test of the condition after the first waits too.
  SourceSite before_each_test(const SourceSite& at);

  void wait_at(const SourceSite& at);

  // Where to wait for task `from` whose result is read at `at`, when `at` is in the function
  // that holds the task's code (the loop that creates it, called from the traced code, or the
  // function that returns what it summed): at the read when it comes after the task's code,
  // else (a loop's condition) right after the task's code. Elsewhere: none.
  std::optional<SourceSite> in_its_function(const SourceSite& at, const trace::TaskInstance& from);

  // The last line of the statement that created child `c` of `in`: the task's end when it was
  // created right there, else the statement through which it was.
  SourceSite creation_end(const trace::TaskInstance& in, std::size_t c);

  // `#pragma omp parallel` and `single` around the statements of the main task's code that
  // create its tasks (one region per function that does), at the depth of its tareador_ON
  // when that is in the function: the loops that create the tasks are in the region whole.
  void place_regions();

  // A declaration among the statements [first, last] of a block the diff adds (the parallel
  // region, a task, a critical section), at their depth, whose variable the code after them
  // uses would go out of scope at the block's closing brace: it is declared before the block, at line `before`, and
  // assigned where it was (`double s = sumsq(v, n);` -> `double s;` before, `s = sumsq(v, n);`
  // inside; a declaration without a value leaves a comment). Only one declarator alone on its
  // line, not const, not an array: whether every such declaration is before the block now
  // (inserted there as `place`).
  bool hoist_declarations(int file, int first, int last, int before, const std::string& block,
                          Place place = Place::RegionOpen);

  // Whether `code` names a variable at `at` (`length` characters): a whole word, and not a
  // member's name (`s.x`, `p->x`).
  static bool is_word_at(const std::string& code, std::size_t at, std::size_t length);

  // ---- The diff ------------------------------------------------------------------------------

  EmitResult write();

  const TaskSet& set_;
  const EmitOptions& options_;
  std::map<SiteKey, TaskSite> sites_;
  std::map<int, SourceText> texts_;
  std::map<int, fs::path> paths_;
  std::vector<std::string> other_files_;  // called_files: file set_.source_files.size() + i
  std::map<int, std::vector<Pending>> pending_;
  std::size_t sequence_ = 0;
  std::map<int, NamedObject> names_;
  std::map<std::string, std::pair<int, Declaration>> declared_;  // name -> file, declaration
  std::map<int, std::vector<std::pair<std::int64_t, std::int64_t>>> pieces_;
  std::set<SiteKey> hoisted_;               // declarations moved before the block that held them
  std::map<LocalKey, bool> shared_locals_;  // find_shared_locals: ordered by depend clauses
  std::map<SiteKey, std::set<std::string>> unwaited_disabled_;  // wait_for_disabled
  std::map<SiteKey, std::set<std::string>> frame_buffers_;      // find_frame_buffers: objects
  std::map<SiteKey, std::set<std::string>> reached_through_;    // and the pointers to them
  std::map<SiteKey, std::pair<int, int>> regions_;  // (file, function body) -> its region's lines
  std::set<std::string> creating_functions_;        // find_creating_sites: they create tasks
  bool called_critical_ = false;                    // place_called_critical_sections placed one
  std::set<SiteKey> critical_sites_;              // the sites with a critical section (their start)
  std::set<SiteKey> waited_;                      // lines a taskwait goes before
  std::map<std::string, std::string> stand_ins_;  // object name -> variable
  std::set<std::pair<int, std::string>> stand_in_files_;
  std::map<int, std::set<SiteKey>> users_;
  std::map<SiteKey, std::map<int, SiteUse>> site_uses_;
  std::vector<std::string> notes_;
  std::set<std::string> noted_;
};

}  // namespace tareador::tasks::emit_detail
