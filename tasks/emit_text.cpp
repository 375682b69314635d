// The text of the annotated source (emit_source.h): the unified diff of inserted lines, the list
// items of the dependence clauses and the task pragma.
#include <algorithm>
#include <sstream>

#include "tasks/emit_source.h"

namespace tareador::tasks {

namespace {

constexpr const char* kNoNewline = "\\ No newline at end of file";

// Old lines [first, last] of a hunk (first > last: none).
struct Hunk {
  int first, last;
};

std::string range(int start, int count) {
  return std::to_string(count == 0 ? start - 1 : start) +
         (count == 1 ? std::string() : "," + std::to_string(count));
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

std::string unified_diff(const std::string& old_name, const std::string& new_name,
                         const std::vector<std::string>& lines,
                         const std::vector<Insertion>& insertions, bool final_newline,
                         int context) {
  if (insertions.empty()) return {};
  const int size = static_cast<int>(lines.size());
  std::vector<Insertion> sorted = insertions;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Insertion& a, const Insertion& b) { return a.before < b.before; });
  // An insertion before line L sits between lines L-1 and L: its context is L-context..L-1+context.
  std::vector<Hunk> hunks;
  for (const Insertion& in : sorted) {
    Hunk h{std::max(1, in.before - context),
           std::min(size, in.before - (in.replaces ? 0 : 1) + context)};
    if (!hunks.empty() && h.first <= hunks.back().last + 1) hunks.back().last = h.last;
    else hunks.push_back(h);
  }
  std::ostringstream out;
  out << "--- " << old_name << "\n+++ " << new_name << "\n";
  std::size_t next = 0;  // the first insertion not written yet
  int added = 0;         // lines inserted by the hunks before
  for (const Hunk& h : hunks) {
    std::size_t end = next;
    while (end < sorted.size() && sorted[end].before <= h.last + 1) ++end;
    int old_count = h.last - h.first + 1;
    int new_count = old_count + static_cast<int>(std::count_if(
                                    sorted.begin() + static_cast<std::ptrdiff_t>(next),
                                    sorted.begin() + static_cast<std::ptrdiff_t>(end),
                                    [](const Insertion& in) { return !in.replaces; }));
    bool rewrites_last =
        !final_newline && size > 0 && h.last == size && sorted[end - 1].before > size;
    out << "@@ -" << range(h.first, old_count) << " +" << range(h.first + added, new_count)
        << " @@\n";
    for (int line = h.first; line <= h.last + 1; ++line) {
      const Insertion* replacement = nullptr;
      for (; next < end && sorted[next].before == line; ++next) {
        if (sorted[next].replaces) replacement = &sorted[next];
        else out << "+" << sorted[next].text << "\n";
      }
      if (line > h.last) break;
      const std::string& text = lines[static_cast<std::size_t>(line - 1)];
      if (replacement) {
        out << "-" << text << "\n+" << replacement->text << "\n";
      } else if (line == size && rewrites_last) {
        // The last line gains the newline the file lacks, so that lines can follow it.
        out << "-" << text << "\n" << kNoNewline << "\n+" << text << "\n";
      } else {
        out << " " << text << "\n";
        if (line == size && !final_newline) out << kNoNewline << "\n";
      }
    }
    added += new_count - old_count;
  }
  return out.str();
}

std::string list_item(const NamedObject& object, std::int64_t first, std::int64_t end,
                      Dialect dialect) {
  if (object.name.empty() || first >= end) return {};
  bool whole = first <= 0 && end >= object.size;
  if (!object.pointer && (whole || object.element <= 0)) return object.name;
  if (object.element <= 0) return {};
  std::int64_t low = first / object.element;
  std::int64_t high = (end + object.element - 1) / object.element;
  return object.name + "[" + std::to_string(low) + (dialect == Dialect::OmpSs ? ";" : ":") +
         std::to_string(high - low) + "]";
}

std::string task_pragma(const Clauses& clauses, Dialect dialect) {
  std::string pragma = "#pragma omp task";
  if (!clauses.firstprivate.empty())
    pragma += " firstprivate(" + joined(clauses.firstprivate) + ")";
  if (!clauses.shared.empty()) pragma += " shared(" + joined(clauses.shared) + ")";
  const std::pair<const char*, const std::vector<std::string>*> kinds[] = {
      {"in", &clauses.in}, {"out", &clauses.out}, {"inout", &clauses.inout}};
  for (const auto& [kind, items] : kinds) {
    if (items->empty()) continue;
    if (dialect == Dialect::OmpSs) pragma += std::string(" ") + kind + "(" + joined(*items) + ")";
    else pragma += std::string(" depend(") + kind + ": " + joined(*items) + ")";
  }
  return pragma;
}

}  // namespace tareador::tasks
