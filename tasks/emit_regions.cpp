// The annotated source's taskwaits and parallel regions, and the declarations moved before the
// blocks the diff adds (emit_generator.h).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "tasks/emit_generator.h"

namespace tareador::tasks::emit_detail {

void Generator::place_taskwaits() {
  for (const trace::TaskInstance& in : set_.instances) {
    SourceSite created;  // the end of the statement that created the last child so far
    for (const trace::TaskStep& step : set_.steps(in)) {
      if (step.spawn) {
        created = creation_end(in, static_cast<std::size_t>(step.index));
        continue;
      }
      const trace::TaskDependency& d = set_.after(in)[static_cast<std::size_t>(step.index)];
      if (d.from <= in.id || !d.site.known() || !created.known()) continue;
      SourceSite at = d.site;
      const SourceText& source = text(created.file);
      if (std::optional<SourceSite> own = in_its_function(at, set_.instance(d.from))) {
        at = *own;
      } else if (at.file != created.file || at.line > source.size() || at.line <= created.line ||
                 source.function_body(at.line) != source.function_body(created.line)) {
        // Read in another function: one the creating statement called, which read what its
        // tasks wrote through pointers after the function that created them returned (a wait
        // there), or one the compiler inlined, whose line the debug information gives (a
        // wait after the creating statement). Both: a taskwait where there is nothing to
        // wait for costs nothing.
        if (at.file < static_cast<int>(set_.source_files.size()) &&
            at.line <= text(at.file).size() && text(at.file).function_body(at.line) != 0)
          wait_at(before_each_test(at));
        at = SourceSite{created.file, created.line + 1};
      }
      wait_at(at);
    }
  }
  for (const auto& [key, names] : unwaited_disabled_) wait_for_disabled(sites_.at(key), names);
  for (const auto& [key, names] : reached_through_) wait_for_disabled(sites_.at(key), names);
  wait_before_reduction_readers();
}

void Generator::wait_before_reduction_readers() {
  std::map<int, std::set<int>> updating;  // object -> the instances whose children update it
  for (const trace::TaskInstance& t : set_.instances) {  // in creation order
    if (t.id == 1 || !t.start_site.known()) continue;
    for (const trace::TaskUse& u : set_.uses(t)) {
      if (u.disabled && u.written > 0) {
        for (int a = t.id; a > 1; a = set_.instance(a).parent)
          updating[u.object].insert(set_.instance(a).parent);
      } else if (!u.disabled && u.read > 0 && updating[u.object].count(t.parent)) {
        const SourceText& source = text(t.start_site.file);
        int line = t.start_site.line;
        if (line <= source.size())
          wait_at({t.start_site.file,
                   source.statement_range(line, line, source.depth_before(line)).first});
      }
    }
  }
}

void Generator::wait_for_disabled(const TaskSite& site, const std::set<std::string>& names) {
  const SourceText& source = text(site.file);
  int body = source.function_body(site.start);
  if (body == 0) return;
  int end = body;  // the line of the function's closing brace
  while (end < source.size() && source.depth_after(end) > 0) ++end;
  auto wait_before_statement = [&](int l) {
    wait_at({site.file, source.statement_range(l, l, source.depth_before(l)).first});
  };
  auto names_any = [&](int l, const std::set<std::string>& words) {
    std::vector<std::string> here = identifiers(source.code(l));
    return std::any_of(here.begin(), here.end(),
                       [&](const std::string& w) { return words.count(w) > 0; });
  };
  // The loops that hold the site and whose code names one (a solver's `while (res > tol)`, a
  // `res = 0` before the tasks): a wait before each later turn, at the loop's last line.
  for (int head = body + 1; head < site.start; ++head) {
    std::vector<std::string> words = identifiers(source.code(head));
    if (words.empty() ||
        (words.front() != "while" && words.front() != "for" && words.front() != "do"))
      continue;
    int last = source.statement_range(head, head, source.depth_before(head)).second;
    bool named = false;
    for (int l = head; l <= last && !named; ++l)
      named = names_any(l, names) && !in_task_code(site.file, l);
    if (last >= site.end && last > head && named) wait_at({site.file, last});
  }
  auto region = regions_.find({site.file, body});
  if (region != regions_.end()) {
    // The region's function: its code after the tasks reads them in the region, or after it,
    // where the region's end has waited for every task.
    for (int l = site.end + 1; l <= region->second.second; ++l)
      if (names_any(l, names) && !in_task_code(site.file, l)) return wait_before_statement(l);
    return;
  }
  auto [first, last] = source.statement_range(site.start, site.end, 1);
  for (int l = first; l <= last; ++l)
    if (names_any(l, {"return"}) && !in_task_code(site.file, l)) wait_before_statement(l);
  std::set<std::string> reads = names;
  reads.insert("return");
  for (int l = last + 1; l < end; ++l)
    if (names_any(l, reads)) return wait_before_statement(l);
  wait_at({site.file, end});
}

bool Generator::in_task_code(int file, int line) const {
  return std::any_of(sites_.begin(), sites_.end(), [&](const auto& entry) {
    return entry.second.file == file && entry.second.start < line && line < entry.second.end;
  });
}

SourceSite Generator::before_each_test(const SourceSite& at) {
  const SourceText& source = text(at.file);
  std::vector<std::string> names = identifiers(source.code(at.line));
  if (names.empty() || (names.front() != "while" && names.front() != "for")) return at;
  int last = source.statement_range(at.line, at.line, source.depth_before(at.line)).second;
  return last > at.line ? SourceSite{at.file, last} : at;
}

void Generator::wait_at(const SourceSite& at) {
  const SourceText& source = text(at.file);
  if (at.line > source.size() || !waited_.insert({at.file, at.line}).second ||
      pragma_before(source, at.line, "taskwait"))  // (the program's own)
    return;
  // Before a block's closing brace, at the depth of the block's statements.
  const std::string& code = source.code(at.line);
  bool closes = code.find_first_not_of(" \t") != std::string::npos &&
                code[code.find_first_not_of(" \t")] == '}' && at.line > 1;
  insert(at.file, at.line, Place::Taskwait,
         source.indent(closes ? at.line - 1 : at.line) + "#pragma omp taskwait");
}

std::optional<SourceSite> Generator::in_its_function(const SourceSite& at,
                                                     const trace::TaskInstance& from) {
  const SourceSite& end = from.end_site;
  if (!end.known() || at.file != end.file) return std::nullopt;
  const SourceText& source = text(at.file);
  if (at.line > source.size() || end.line + 1 > source.size() ||
      source.function_body(at.line) != source.function_body(end.line))
    return std::nullopt;
  return at.line > end.line ? at : SourceSite{end.file, end.line + 1};
}

SourceSite Generator::creation_end(const trace::TaskInstance& in, std::size_t c) {
  if (c >= set_.spawn_sites(in).size() || !set_.spawn_sites(in)[c].known()) return {};
  const SourceSite& at = set_.spawn_sites(in)[c];
  const trace::TaskInstance& child = set_.instance(set_.children(in)[c]);
  if (child.start_site.file == at.file && child.start_site.line == at.line &&
      child.end_site.known())
    return child.end_site;
  const SourceText& source = text(at.file);
  if (at.line > source.size()) return {};
  return SourceSite{at.file,
                    source.statement_range(at.line, at.line, source.depth_min(at.line)).second};
}

void Generator::place_regions() {
  const trace::TaskInstance& main = set_.instance(1);
  std::map<std::pair<int, int>, std::pair<int, int>> spans;  // (file, function) -> lines
  for (std::size_t c = 0; c < set_.children(main).size(); ++c) {
    SourceSite at = c < set_.spawn_sites(main).size() ? set_.spawn_sites(main)[c] : SourceSite{};
    if (!at.known()) continue;
    const trace::TaskInstance& child = set_.instance(set_.children(main)[c]);
    int last = at.line;
    // Created right here: its whole code is in the region.
    if (child.start_site.file == at.file && child.start_site.line == at.line)
      last = child.end_site.line;
    const SourceText& source = text(at.file);
    auto [it, fresh] = spans.try_emplace({at.file, source.function_body(at.line)}, at.line, last);
    it->second.first = std::min(it->second.first, at.line);
    it->second.second = std::max(it->second.second, last);
  }
  if (spans.empty()) notes_.push_back("the main task creates no task where the trace can tell");
  for (const auto& [where, lines] : spans) {
    const SourceText& source = text(where.first);
    const SourceSite& on = main.start_site;
    int depth = on.file == where.first && source.function_body(on.line) == where.second
                    ? source.depth_before(on.line)
                    : source.depth_before(lines.first);
    auto [first, last] = source.statement_range(lines.first, lines.second, depth);
    regions_[where] = {first, last};
    // (Tasks already in the program's region: a second one inside it would run on one thread.)
    if (int own = program_parallel(where.first, first)) {
      notes_.push_back(this->where(where.first, own) +
                       ": the code that creates the tasks is already in the program's parallel "
                       "region: no parallel region added");
      continue;
    }
    // The pragmas go between lines: the region's first line must start inside the function and
    // its last must not close it (`int main(void) { tareador_ON(); ...` on one line).
    if (source.depth_before(first) == 0 || source.depth_after(last) == 0)
      throw std::runtime_error(
          this->where(where.first, source.depth_before(first) == 0 ? first : last) +
          ": the parallel region's statements share this line with the function's " +
          (source.depth_before(first) == 0 ? "opening" : "closing") +
          " brace, so no pragma can go before them alone: put the statements from "
          "tareador_ON to tareador_OFF on lines of their own");
    int open = first, close = last + 1;
    if (!in_one_branch(where.first, open, close, "parallel region", first)) continue;
    std::string indent = source.indent(first);
    hoist_declarations(where.first, first, last, open, "parallel region");
    for (int l = first; l <= last; ++l) {
      std::vector<std::string> names = identifiers(source.code(l));
      if (std::find(names.begin(), names.end(), "return") != names.end() ||
          std::find(names.begin(), names.end(), "goto") != names.end())
        notes_.push_back(this->where(where.first, l) +
                         ": a return or goto inside the parallel region does not compile (no "
                         "branch may leave an OpenMP structured block): set a flag there and "
                         "act on it after the region");
    }
    insert(where.first, open, Place::RegionOpen, indent + "#pragma omp parallel");
    insert(where.first, open, Place::RegionOpen, indent + "#pragma omp single");
    insert(where.first, open, Place::RegionOpen, indent + "{");
    insert(where.first, close, Place::RegionClose, indent + "}");
  }
}

bool Generator::hoist_declarations(int file, int first, int last, int before,
                                   const std::string& block, Place place) {
  const SourceText& source = text(file);
  int depth = source.depth_before(first), body = source.function_body(first);
  std::string after;
  for (int l = last + 1; l <= source.size() && source.function_body(l) == body; ++l)
    after += source.code(l) + "\n";
  std::vector<std::string> used = identifiers(after);
  std::vector<Declaration> declared = source.declarations(first, last);
  // Moves `d` before the block: false when it cannot be.
  auto move = [&](const Declaration& d) {
    if (d.dimensions > 0 ||
        std::count_if(declared.begin(), declared.end(),
                      [&](const Declaration& o) { return o.line == d.line; }) != 1)
      return false;
    const std::string& code = source.code(d.line);
    std::size_t at = code.find(d.name);
    while (at != std::string::npos && !is_word_at(code, at, d.name.size()))
      at = code.find(d.name, at + 1);
    if (at == std::string::npos) return false;
    std::size_t next = code.find_first_not_of(" \t", at + d.name.size());
    std::string indent = source.indent(d.line);
    std::string type = code.substr(indent.size(), at - indent.size());
    bool valued = next != std::string::npos && code.compare(next, 1, "=") == 0 &&
                  code.compare(next, 2, "==") != 0;
    bool bare = next != std::string::npos && code.compare(next, 1, ";") == 0;
    if (!(valued || bare) || code.back() != ';' || identifiers(type).empty() ||
        type.find("const") != std::string::npos || type.find("static") != std::string::npos)
      return false;
    hoisted_.insert({file, d.line});
    insert(file, before, place, source.indent(first) + type + d.name + ";");
    replace(file, d.line,
            indent + (valued ? source.line(d.line).substr(at)
                             : "/* " + d.name + ": declared before the " + block + " */"));
    notes_.push_back(where(file, d.line) + ": " + d.name + ", used after the " + block +
                     ", is declared before it");
    return true;
  };
  bool all = true;
  for (const Declaration& d : declared)
    if (source.depth_before(d.line) == depth && !hoisted_.count({file, d.line}) &&
        std::find(used.begin(), used.end(), d.name) != used.end())
      all = move(d) && all;
  return all;
}

bool Generator::is_word_at(const std::string& code, std::size_t at, std::size_t length) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t before = at == 0 ? std::string::npos : code.find_last_not_of(" \t", at - 1);
  bool member =
      before != std::string::npos &&
      (code[before] == '.' || (code[before] == '>' && before > 0 && code[before - 1] == '-'));
  return (at == 0 || !word(code[at - 1])) && !member &&
         (at + length >= code.size() || !word(code[at + length]));
}

}  // namespace tareador::tasks::emit_detail
