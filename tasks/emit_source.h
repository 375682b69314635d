// emit_source.h — the annotated source (docs/emit-source.md): the task decomposition of a
// tasks trace written back into the program's sources, as a unified diff that inserts the
// OpenMP (or OmpSs) task pragmas with their dependence clauses before each task's code, the
// taskwaits where the creating code reads what its tasks produced, and the parallel/single
// region around the creating code. Sites come from the debug information the tool recorded
// (version 3 streams); objects are named as the source names them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tareador/trace.h"

namespace tareador::tasks {

enum class Dialect { OpenMP, OmpSs };

// ---- The diff writer -------------------------------------------------------------------------

// A line inserted before line `before` of a file (1-based; the file's size + 1: at its end), or
// with `replaces`, the new text of line `before` (not the file's last line). Insertions before
// one line keep the order they are given in.
struct Insertion {
  int before = 0;
  std::string text;  // without the newline
  bool replaces = false;
};

// The unified diff that makes `lines` into `lines` with `insertions`, with `context` lines of
// context around each change (hunks whose context would touch are one), headed
// `--- OLD_NAME` / `+++ NEW_NAME`. Empty when there is nothing to change. `final_newline`:
// whether the file ends with a newline (else the diff says so after its last line).
std::string unified_diff(const std::string& old_name, const std::string& new_name,
                         const std::vector<std::string>& lines,
                         const std::vector<Insertion>& insertions, bool final_newline = true,
                         int context = 3);

// ---- Dependence clauses ----------------------------------------------------------------------

// An object as a list item: `name` is how the source names it, `pointer` whether that is a
// pointer to its first byte (a heap block) rather than the object itself (an array, a scalar);
// `element` the size of an element (0: not known), `size` the object's bytes.
struct NamedObject {
  std::string name;
  bool pointer = false;
  std::int64_t element = 0;
  std::int64_t size = 0;
};

// The list item for bytes [first, end) of an object: `name` for the whole of an array or a
// scalar, an array section of `len` elements from `lo` for part of it or for a pointed-to
// block: `name[lo:len]` in OpenMP, `name[lo;len]` in OmpSs (where `[lo:hi]` means lo to hi
// inclusive). Bounds are widened to whole elements. Empty when the object cannot be named so.
std::string list_item(const NamedObject& object, std::int64_t first, std::int64_t end,
                      Dialect dialect);

// The items of one task's clauses.
struct Clauses {
  std::vector<std::string> in, out, inout, firstprivate, shared;
};

// "#pragma omp task firstprivate(..) shared(..) depend(in: ..) depend(out: ..) depend(inout:
// ..)", or in the OmpSs dialect "#pragma omp task firstprivate(..) shared(..) in(..) out(..)
// inout(..)".
std::string task_pragma(const Clauses& clauses, Dialect dialect);

// ---- The generator ---------------------------------------------------------------------------

struct EmitOptions {
  Dialect dialect = Dialect::OpenMP;
  // Where the sources are when not at the paths the debug information gives (tried with the
  // file's name, then with each trailing part of its path); empty: those paths only.
  std::string source_dir;
};

struct EmitResult {
  std::string diff;                // against the sources, `--- a/PATH` `+++ b/PATH`, PATH
                                   // relative to the common directory of the files
  std::string root;                // that directory: apply with `patch -p1 -d ROOT`
  std::vector<std::string> notes;  // what was left out or approximated, and why
};

// The annotated source of the decomposition in `set` (one rank's tasks). Throws
// std::runtime_error when the trace has no source sites (recorded before version 3) or a
// task's code cannot be made a task (its annotations on one line, in a macro, in two files).
EmitResult emit_source(const trace::TaskSet& set, const EmitOptions& options);

}  // namespace tareador::tasks
