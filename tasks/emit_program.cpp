// What the annotated source learns from the program's text beyond the trace (emit_generator.h):
// which tasks can create tasks (their code calls a function that does), the OpenMP pragmas the
// program already has, and where its preprocessor conditionals keep a block out of some builds.
#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "tasks/emit_generator.h"

namespace tareador::tasks::emit_detail {

void Generator::find_creating_sites() {
  std::set<int> files;
  for (const auto& [key, site] : sites_) files.insert(site.file);
  // The functions that create tasks: those that hold a task's start or call
  // tareador_start_task; and, where a task was created through a statement (the trace's spawn
  // site), the functions that statement calls (one of them led to the task, maybe through a
  // function pointer the text does not follow).
  std::set<std::string> creating;
  std::map<std::pair<int, int>, std::string> names;  // (file, function body) -> its name
  auto function_at = [&](int file, int line) -> const std::string& {
    const SourceText& source = text(file);
    int body = line <= source.size() ? source.function_body(line) : 0;
    auto [it, fresh] = names.try_emplace({file, body});
    if (fresh && body != 0) it->second = source.function_name(body);
    return it->second;
  };
  std::map<std::string, std::set<std::string>> calls;  // function -> the functions it calls
  for (int file : files)
    for (int l = 1; l <= text(file).size(); ++l) {
      const std::string& function = function_at(file, l);
      if (function.empty()) continue;
      std::set<std::string>& callees = calls[function];
      for (const std::string& name : called_names(text(file).code(l))) {
        if (name == "tareador_start_task") creating.insert(function);
        callees.insert(name);
      }
    }
  for (const auto& [key, site] : sites_) creating.insert(function_at(site.file, site.start));
  for (const trace::TaskInstance& in : set_.instances)
    for (std::size_t c = 0; c < set_.spawn_sites(in).size(); ++c) {
      const SourceSite& at = set_.spawn_sites(in)[c];
      const SourceSite& start = set_.instance(set_.children(in)[c]).start_site;
      if (!files.count(at.file) || (start.file == at.file && start.line == at.line) ||
          at.line > text(at.file).size())
        continue;
      for (const std::string& name : called_names(text(at.file).code(at.line)))
        if (calls.count(name)) creating.insert(name);
    }
  creating.erase("");
  for (bool grew = true; grew;) {  // and the functions that call one, directly or not
    grew = false;
    for (const auto& [function, callees] : calls)
      if (!creating.count(function) &&
          std::any_of(callees.begin(), callees.end(),
                      [&](const std::string& f) { return creating.count(f) > 0; })) {
        creating.insert(function);
        grew = true;
      }
  }
  creating_functions_ = creating;
  // A task whose instances created no task in the traced run (its recursion reached its base
  // case under it on the traced input) may on another input: OpenMP would end it before its
  // children, which its siblings may need.
  for (auto& [key, site] : sites_) {
    std::string called;  // a function its code calls that creates tasks
    const SourceText& source = text(site.file);
    for (int l = site.start + 1; l < std::min(site.end, source.size() + 1); ++l)
      for (const std::string& name : called_names(source.code(l)))
        if (called.empty() && (name == "tareador_start_task" || creating.count(name)))
          called = name;
    if (site.creates || called.empty()) continue;
    site.creates = true;
    notes_.push_back(where(site.file, site.start) + ": task " + site.type + " calls " + called +
                     ", which creates tasks (none under it in the traced run): a taskwait at "
                     "its end, for the inputs where it does");
  }
}

std::set<int> Generator::called_files() {
  std::set<int> traced;  // the files of the tasks
  std::set<fs::path> dirs;
  for (const auto& [key, site] : sites_) {
    traced.insert(site.file);
    text(site.file);
    dirs.insert(paths_[site.file].parent_path());
  }
  std::error_code error;
  std::map<fs::path, int> numbers;  // the trace's files by their paths
  for (int f = 0; f < static_cast<int>(set_.source_files.size()); ++f)
    numbers.emplace(paths_.count(f) ? paths_[f] : fs::weakly_canonical(source_name(f), error), f);
  std::set<int> beside;  // the sources in their directories
  for (const fs::path& dir : dirs)
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
      static const std::set<std::string> sources = {".c", ".cc", ".cpp", ".cxx", ".C"};
      fs::path path = fs::weakly_canonical(entry.path(), error);
      if (error || !entry.is_regular_file(error) || !sources.count(path.extension().string()))
        continue;
      int next = static_cast<int>(set_.source_files.size() + other_files_.size());
      auto [it, fresh] = numbers.emplace(path, next);
      if (fresh) other_files_.push_back(path.string());
      try {
        text(it->second);
        if (!traced.count(it->second)) beside.insert(it->second);
      } catch (const std::runtime_error&) {  // (unreadable: of no use)
      }
    }
  // The functions each file defines: name -> (file, the lines of its body).
  std::map<std::string, std::vector<std::tuple<int, int, int>>> defined;
  for (const std::set<int>* files : {&traced, &beside})
    for (int file : *files) {
      const SourceText& source = text(file);
      for (int l = 1; l <= source.size(); ++l) {
        if (source.depth_before(l) != 0 || source.code(l).find('{') == std::string::npos) continue;
        int last = l;
        while (last < source.size() && source.depth_after(last) > 0) ++last;
        if (std::string name = source.function_name(l); !name.empty())
          defined[name].emplace_back(file, l, last);
        l = last;
      }
    }
  std::vector<std::string> called;  // the functions the tasks call, to follow
  std::set<std::string> seen;
  auto calls_in = [&](int file, int first, int last) {
    for (int l = first; l <= last; ++l)
      for (const std::string& name : called_names(text(file).code(l)))
        if (seen.insert(name).second) called.push_back(name);
  };
  for (const auto& [key, site] : sites_) calls_in(site.file, site.start + 1, site.end - 1);
  std::set<int> found;
  while (!called.empty()) {
    std::vector<std::tuple<int, int, int>> definitions = defined[called.back()];
    const std::string name = called.back();
    called.pop_back();
    // (Defined in the tasks' files: theirs is the one the program calls.)
    auto elsewhere = std::remove_if(definitions.begin(), definitions.end(),
                                    [&](const auto& d) { return !traced.count(std::get<0>(d)); });
    if (elsewhere != definitions.begin()) definitions.erase(elsewhere, definitions.end());
    if (definitions.size() > 1 && !traced.count(std::get<0>(definitions.front()))) {
      std::string files;
      for (const auto& d : definitions) files += ", " + source_name(std::get<0>(d));
      notes_.push_back("the tasks call " + name + ", defined in several files beside theirs (" +
                       files.substr(2) +
                       "): it is left as it is (its updates between tareador_disable_object "
                       "and tareador_enable_object need a critical section by hand)");
      continue;
    }
    for (const auto& [file, body, last] : definitions) {
      if (!traced.count(file)) found.insert(file);
      calls_in(file, body, last);
    }
  }
  return found;
}

int Generator::enclosing_statement(const SourceText& source, int line) {
  int depth = source.depth_before(line);
  if (depth <= 1) return 0;  // (a statement of the function's body)
  int opener = line - 1;
  while (opener > 1 && source.depth_before(opener) >= depth) --opener;
  return source.statement_range(opener, opener, source.depth_before(opener)).first;
}

int Generator::pragma_before(const SourceText& source, int line, const std::string& directive) {
  for (int l = line - 1; l >= 1 && source.code(l).find_first_not_of(' ') == std::string::npos;
       --l) {
    std::vector<std::string> words = source.openmp_words(l);
    if (words.empty() || words.front() == "cancel" || words.front() == "cancellation") continue;
    if (directive == "parallel" ? std::count(words.begin(), words.end(), directive) > 0
                                : words.front() == directive)
      return l;
  }
  return 0;
}

int Generator::program_parallel(int file, int first) {
  const SourceText& source = text(file);
  for (int at = first; at > 0; at = enclosing_statement(source, at))
    if (int pragma = pragma_before(source, at, "parallel")) return pragma;
  return 0;
}

int Generator::program_task(const TaskSite& site) {
  const SourceText& source = text(site.file);
  int depth = source.depth_before(site.start);
  for (int l = site.start + 1; l < site.end; ++l)
    if (source.depth_before(l) == depth && !source.openmp_words(l).empty() &&
        source.openmp_words(l).front() == "task")
      return l;
  // The task's annotations inside the program's task: `#pragma omp task { start; ...; end; }`
  int holder = enclosing_statement(source, site.start);
  if (holder == 0 || enclosing_statement(source, site.end) != holder) return 0;
  return pragma_before(source, holder, "task");
}

bool Generator::in_one_branch(int file, int& open, int& close, const std::string& block, int line) {
  const SourceText& source = text(file);
  std::optional<std::pair<int, int>> points = source.same_branch(open, close);
  bool moved = points && (points->first != open || points->second != close);
  bool code = false;  // (moved out of the conditionals, the block may have lost all its code)
  for (int l = moved ? points->first : 0; moved && l < points->second && !code; ++l)
    code = source.code(l).find_first_not_of(' ') != std::string::npos;
  if (!points || (moved && !code)) {
    notes_.push_back(where(file, line) + ": the " + block +
                     " starts and ends in different branches of the preprocessor conditionals "
                     "(#if, #ifdef, #else), or all its code is in one: no pragma added (its "
                     "braces would not match in every build)");
    return false;
  }
  if (moved)
    notes_.push_back(where(file, line) + ": the " + block +
                     " starts or ends inside a preprocessor conditional (#if, #ifdef): its "
                     "pragma and braces go outside the conditional (before lines " +
                     std::to_string(points->first) + " and " + std::to_string(points->second) +
                     "), so that every build has them whether its macro is defined or not");
  std::tie(open, close) = *points;
  return true;
}

}  // namespace tareador::tasks::emit_detail
