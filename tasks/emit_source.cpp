// The annotated source (emit_source.h): the task sites, the locals the tasks share, the names
// of the objects in the clauses, the diff; the taskwaits and the parallel region are in
// emit_regions.cpp. docs/emit-source.md says what is generated and why.
#include "tasks/emit_source.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "tasks/emit_generator.h"

namespace tareador::tasks {

namespace emit_detail {

namespace {
constexpr std::int64_t kPointerBytes = 8;  // in the traced programs (64-bit platforms)

// Whether `d` is one of `parameters` (a function's), not a local of the same name.
bool is_parameter(const std::vector<Declaration>& parameters, const Declaration& d) {
  return std::any_of(parameters.begin(), parameters.end(),
                     [&](const Declaration& p) { return p.name == d.name && p.line == d.line; });
}
}  // namespace

EmitResult Generator::run() {
  if (std::none_of(set_.instances.begin(), set_.instances.end(),
                   [](const trace::TaskInstance& i) { return i.start_site.known(); }))
    throw std::runtime_error(
        "the trace records no source lines (traced before format version 3, or the program "
        "has no debug information: compile it with -g)");
  collect_sites();
  find_creating_sites();
  find_shared_locals();
  find_frame_buffers();
  place_regions();  // (first: a declaration used after the region is declared before it)
  place_called_critical_sections();
  for (const auto& [key, site] : sites_) place_task(site);
  place_taskwaits();
  return write();
}

const SourceText& Generator::text(int file) {
  auto it = texts_.find(file);
  if (it != texts_.end()) return it->second;
  fs::path path = source_name(file);
  std::error_code error;
  if (!fs::is_regular_file(path, error) && !options_.source_dir.empty()) {
    // The file's name, then longer and longer trailing parts of its path.
    std::vector<fs::path> parts(path.begin(), path.end());
    fs::path tail;
    for (auto p = parts.rbegin(); p != parts.rend(); ++p) {
      tail = tail.empty() ? *p : *p / tail;
      if (fs::is_regular_file(options_.source_dir / tail, error)) {
        path = options_.source_dir / tail;
        break;
      }
    }
  }
  paths_[file] = fs::weakly_canonical(path, error);
  if (error) paths_[file] = path;
  return texts_.emplace(file, SourceText::read(paths_[file].string())).first->second;
}

const std::string& Generator::source_name(int file) const {
  auto traced = static_cast<int>(set_.source_files.size());
  return file < traced ? set_.source_files[static_cast<std::size_t>(file)]
                       : other_files_[static_cast<std::size_t>(file - traced)];
}

std::string Generator::where(int file, int line) const {
  return source_name(file) + ":" + std::to_string(line);
}

void Generator::insert(int file, int before, Place place, const std::string& text) {
  pending_[file].push_back(Pending{before, place, sequence_++, text});
}

void Generator::replace(int file, int line, const std::string& text) {
  pending_[file].push_back(Pending{line, Place::RegionOpen, sequence_++, text, true});
}

void Generator::collect_sites() {
  for (const trace::TaskInstance& in : set_.instances) {
    if (in.id == 1) continue;
    const std::string& type = set_.types[static_cast<std::size_t>(in.type)];
    if (!in.start_site.known() || !in.end_site.known())
      throw std::runtime_error("task " + type + " #" + std::to_string(in.id) +
                               ": its start or end has no source line (no debug information)");
    const SourceSite& s = in.start_site;
    const SourceSite& e = in.end_site;
    if (e.file != s.file || e.line <= s.line)
      throw std::runtime_error(where(s.file, s.line) + ": task " + type +
                               " starts and ends on one line or in two files (" +
                               where(e.file, e.line) +
                               "), so no statement holds it alone (annotations in a macro?)");
    TaskSite& site = sites_[{s.file, s.line}];
    if (site.instances.empty()) site = TaskSite{s.file, s.line, e.line, {}, false, type};
    if (site.end != e.line)
      throw std::runtime_error(where(s.file, s.line) + ": task " + type + " ends at line " +
                               std::to_string(site.end) + " and at line " + std::to_string(e.line) +
                               ": one task per start and end, please");
    site.instances.push_back(in.id);
    site.creates = site.creates || !set_.children(in).empty();
  }
}

void Generator::place_task(const TaskSite& site) {
  const SourceText& source = text(site.file);
  if (site.end > source.size())
    throw std::runtime_error(where(site.file, site.end) + ": past the end of the file (" +
                             std::to_string(source.size()) + " lines): not the traced source?");
  auto pragma = [&] {
    Clauses clauses = clauses_of(site);
    share_locals(site, locals_used(source, site), clauses);
    return task_pragma(clauses, options_.dialect);
  };
  if (int own = program_task(site)) {
    notes_.push_back(where(site.file, own) + ": task " + site.type +
                     " is already an OpenMP task in the source: no task pragma added (the "
                     "trace's would be `" +
                     pragma() + "`)");
    return;
  }
  int open = site.start + 1, close = site.end;
  if (!in_one_branch(site.file, open, close, "task " + site.type, site.start)) return;
  if (place_critical_sections(site)) critical_sites_.insert({site.file, site.start});
  std::string task = pragma();
  hoist_declarations(site.file, site.start + 1, site.end - 1, open, "task");
  std::string indent = source.indent(site.start);
  insert(site.file, open, Place::TaskOpen, indent + task);
  insert(site.file, open, Place::TaskOpen, indent + "{");
  // OpenMP does not wait for a task's children when it ends; its siblings may need them.
  if (site.creates) insert(site.file, close, Place::Taskwait, indent + "#pragma omp taskwait");
  insert(site.file, close, Place::TaskClose, indent + "}");
}

bool Generator::place_critical_sections(const TaskSite& site) {
  // (A task that creates tasks would wait for them inside the section, where they may need it.)
  if (site.creates) return false;
  bool placed = false;
  for (auto [first, last] : disabled_updates(text(site.file), site.start + 1, site.end))
    if (first > site.start && last < site.end)  // whole statements of the task
      placed = place_critical(site.file, first, last) || placed;
  return placed;
}

void Generator::place_called_critical_sections() {
  bool updated = std::any_of(set_.instances.begin(), set_.instances.end(), [&](const auto& t) {
    const auto uses = set_.uses(t);
    return t.id != 1 && std::any_of(uses.begin(), uses.end(), [](const trace::TaskUse& u) {
             return u.disabled && u.written > 0;
           });
  });
  if (!updated) return;
  std::set<int> files = called_files();
  for (const auto& [key, site] : sites_) files.insert(site.file);
  for (int file : files) {
    const SourceText& source = text(file);
    for (auto [first, last] : disabled_updates(source, 1, source.size() + 1)) {
      // (The pairs in a task's code are its own sections: place_critical_sections.)
      bool creates = in_task_code(file, first) || source.function_body(first) == 0;
      for (const auto& [key, site] : sites_)
        creates = creates || (site.file == file && first <= site.start && site.end <= last);
      for (int l = first; l <= last && !creates; ++l)
        for (const std::string& name : called_names(source.code(l)))
          creates = creates || name == "tareador_start_task" || creating_functions_.count(name);
      if (!creates && place_critical(file, first, last)) called_critical_ = true;
    }
  }
}

std::vector<std::pair<int, int>> Generator::disabled_updates(const SourceText& source, int from,
                                                             int to) {
  std::vector<std::pair<int, int>> updates;
  int disabled = 0, first = 0, body = -1;  // objects disabled and not enabled again; where the
                                           // first was; the function of the lines
  auto calls = [](const std::string& code, const std::string& function) {
    int n = 0;
    for (std::size_t at = code.find(function); at != std::string::npos;
         at = code.find(function, at + 1)) {
      std::size_t next = code.find_first_not_of(" \t", at + function.size());
      n += is_word_at(code, at, function.size()) && next != std::string::npos && code[next] == '(';
    }
    return n;
  };
  for (int l = from; l < to; ++l) {
    if (int b = source.function_body(l); b != body) {  // (one never enabled stops at its end)
      body = b;
      disabled = first = 0;
    }
    int disables = calls(source.code(l), "tareador_disable_object");
    int enables = calls(source.code(l), "tareador_enable_object");
    if (disabled == 0 && disables > 0) first = l;
    disabled = std::max(0, disabled + disables - enables);
    if (first == 0 || disabled > 0) continue;
    updates.push_back(source.statement_range(first, l, source.depth_before(first)));
    first = 0;
  }
  return updates;
}

bool Generator::place_critical(int file, int first, int last) {
  const SourceText& source = text(file);
  bool synchronised = false;  // the program's own atomic or critical updates
  for (int k = first; k <= last; ++k)
    synchronised = synchronised || source.line(k).find("#pragma omp atomic") != std::string::npos ||
                   source.line(k).find("#pragma omp critical") != std::string::npos;
  int open = first, close = last + 1;
  // (What the code after the section uses of its declarations is declared before it.)
  if (synchronised || !in_one_branch(file, open, close, "critical section", first) ||
      !hoist_declarations(file, first, last, open, "critical section", Place::CriticalOpen))
    return false;
  std::string indent = source.indent(first);
  insert(file, open, Place::CriticalOpen, indent + "#pragma omp critical");
  insert(file, open, Place::CriticalOpen, indent + "{");
  insert(file, close, Place::CriticalClose, indent + "}");
  return true;
}

std::vector<Declaration> Generator::locals_used(const SourceText& source, const TaskSite& site) {
  int body = source.function_body(site.start);
  if (body == 0) return {};
  std::map<std::string, Declaration> locals;
  for (const Declaration& d : source.parameters(body)) locals[d.name] = d;
  for (const Declaration& d : source.declarations(body + 1, site.start))
    if (in_scope(source, d, site.start)) locals[d.name] = d;
  std::string code;
  for (int l = site.start + 1; l < site.end; ++l) code += source.code(l) + "\n";
  std::vector<Declaration> used;
  for (const std::string& name : identifiers(code))
    if (locals.count(name)) used.push_back(locals[name]);
  return used;
}

bool Generator::in_scope(const SourceText& source, const Declaration& d, int line) {
  int depth = source.depth_before(d.line);
  for (int l = d.line; l <= line; ++l)
    if (source.depth_min(l) < depth) return false;
  return true;
}

Generator::LocalKey Generator::local_key(const TaskSite& site, const std::string& name) {
  return {site.file, text(site.file).function_body(site.start), name};
}

void Generator::find_shared_locals() {
  std::map<int, const TaskSite*> site_of;  // instance -> its site
  for (const auto& [key, site] : sites_)
    for (int id : site.instances) site_of[id] = &site;
  std::set<LocalKey> read_by_parent, read_by_task;
  for (const trace::TaskInstance& t : set_.instances)
    for (const trace::TaskDependency& d : set_.after(t)) {
      auto from = site_of.find(d.from);
      if (!(d.kinds & trace::kRaw) || from == site_of.end()) continue;
      const TaskSite& site = *from->second;
      // The creating code's read, in the function that holds the task (in another, a
      // caller's, it reads a variable of its own the task wrote through a pointer, which
      // the task copies): by the name of a variable there.
      bool by_parent = set_.instance(d.from).parent == t.id;
      if (by_parent && !(d.site.known() && d.site.file == site.file &&
                         text(site.file).function_body(d.site.line) ==
                             text(site.file).function_body(site.start)))
        continue;
      for (int id : set_.objects_of(d))
        if (const trace::TaskObject* o = set_.object(id); o && o->kind == "stack")
          (by_parent ? read_by_parent : read_by_task).insert(local_key(site, o->name));
    }
  for (const auto& [key, site] : sites_) {
    bool outlives = in_region_function(site);
    for (int id : site.instances)  // (not their children's: those write their creators' locals)
      for (const trace::TaskUse& u : set_.uses(set_.instance(id))) {
        const trace::TaskObject* o = set_.object(u.object);
        if (o == nullptr || o->kind != "stack" || u.written <= 0) continue;
        LocalKey local = local_key(site, o->name);
        if (!(u.disabled || read_by_parent.count(local) ||
              (outlives && (read_by_task.count(local) || read_after_tracing(site, o->name)))))
          continue;
        // Disabled, no read the trace saw waits for it: the creating code waits before it
        // reads it (and, outside the region's function, before it returns).
        if (u.disabled) unwaited_disabled_[key].insert(o->name);
        auto [it, fresh] = shared_locals_.try_emplace(local, !u.disabled);
        it->second = it->second && !u.disabled;
      }
  }
}

void Generator::find_frame_buffers() {
  const SourceSite& on = set_.instance(1).start_site;
  // Whether a stack object is the region function's (whose frame outlives the region): an
  // alloca there, or a variable it declares, not a pointer.
  auto of_region_function = [&](const trace::TaskObject& o) {
    if (!on.known()) return false;
    const SourceText& source = text(on.file);
    int body = source.function_body(on.line);
    std::size_t at = o.name.find('@'), colon = o.name.rfind(':');
    if (at != std::string::npos && colon != std::string::npos && colon > at) {
      int line = std::atoi(o.name.c_str() + colon + 1);
      return fs::path(set_.source_files[static_cast<std::size_t>(on.file)]).filename() ==
                 o.name.substr(at + 1, colon - at - 1) &&
             line >= 1 && line <= source.size() && source.function_body(line) == body;
    }
    std::vector<Declaration> declared = source.declarations(body + 1, source.size());
    for (const Declaration& d : source.parameters(body)) declared.push_back(d);
    return std::any_of(declared.begin(), declared.end(), [&](const Declaration& d) {
      return d.name == o.name && d.stars == 0 && !d.reference &&
             source.function_body(d.line) == body;
    });
  };
  for (const auto& [key, site] : sites_) {
    const SourceText& source = text(site.file);
    int body = source.function_body(site.start);
    if (body == 0) continue;
    std::vector<Declaration> parameters = source.parameters(body);
    std::set<std::string> copied, pointers;   // the task's code's variables: copies of objects,
                                              // or pointers (array parameters are)
    std::set<std::string> pointer_variables;  // (declared with a '*': the variable is copied)
    for (const Declaration& d : locals_used(source, site)) {
      bool parameter = is_parameter(parameters, d);
      (d.stars == 0 && !d.reference && !(parameter && d.dimensions > 0) ? copied : pointers)
          .insert(d.name);
      if (d.stars > 0 && !d.reference) pointer_variables.insert(d.name);
    }
    // An object of a pointer's name and size is that pointer variable, which firstprivate copies
    // (a loop's `p += 16` walking an array); a larger one is what it points to, a caller's array
    // of the same name.
    auto pointer_itself = [&](const trace::TaskObject& o) {
      return pointer_variables.count(o.name) && o.size == kPointerBytes;
    };
    // (The branches of a conditional may declare it an array or a pointer: `int v[M]` or
    // `int* v = alloca(..)`; the object named so is then the array.)
    for (const Declaration& d : source.declarations(body + 1, site.start))
      if (pointers.count(d.name) && d.stars == 0 && !d.reference) copied.insert(d.name);
    for (int id : site.instances)
      for (const trace::TaskUse& u : set_.uses(set_.instance(id))) {
        const trace::TaskObject* o = set_.object(u.object);
        if (o == nullptr || o->kind != "stack" || u.disabled || (u.read <= 0 && u.written <= 0) ||
            copied.count(o->name) || pointer_itself(*o) || o->name.rfind("__", 0) == 0 ||
            shared_locals_.count(local_key(site, o->name)) || of_region_function(*o))
          continue;
        frame_buffers_[key].insert(o->name);
        reached_through_[key].insert(pointers.begin(), pointers.end());
      }
  }
}

void Generator::share_locals(const TaskSite& site, const std::vector<Declaration>& used,
                             Clauses& clauses) {
  std::map<std::string, bool> reads, writes;
  for (int id : site.instances)
    for (const trace::TaskUse& u : set_.uses(set_.instance(id)))
      if (const trace::TaskObject* o = set_.object(u.object); o && o->kind == "stack") {
        reads[o->name] = reads[o->name] || u.read > 0;
        writes[o->name] = writes[o->name] || u.written > 0;
      }
  for (const Declaration& local : used) {
    const std::string& name = local.name;
    auto it = shared_locals_.find(local_key(site, name));
    if (it == shared_locals_.end()) {
      // A C++ reference shared is what a pointer copied is: the task uses the caller's object
      // (orphaned tasks would copy what a reference parameter refers to).
      if (local.reference) clauses.shared.push_back(name);
      else if (local.dimensions == 0) clauses.firstprivate.push_back(name);
      continue;
    }
    clauses.shared.push_back(name);
    bool ordered = it->second && !(local.dimensions > 0 && elements_apart(site, name));
    if (ordered)
      (!writes[name] ? clauses.in : reads[name] ? clauses.inout : clauses.out).push_back(name);
    if (writes[name])
      note_once(name + " written", "task " + site.type + " writes " + name +
                                       ", a local of the code that creates it: shared, so "
                                       "that the code after it sees what it wrote" +
                                       (ordered ? ", and in its depend clauses" : ""));
  }
}

bool Generator::elements_apart(const TaskSite& site, const std::string& name) {
  LocalKey local = local_key(site, name);
  // By object: each activation of the creating function has an array of its own.
  std::map<int, std::vector<std::pair<std::int64_t, std::int64_t>>> spans;
  std::set<const trace::TaskUse*> seen;  // (a recursive site's instances are in its subtrees)
  for (const auto& [key, other] : sites_)
    for (int id : other.instances)
      for (const trace::TaskUse* u : subtree_uses(id)) {
        const trace::TaskObject* o = set_.object(u->object);
        if (o == nullptr || o->kind != "stack" || local_key(other, o->name) != local ||
            !seen.insert(u).second)
          continue;
        if (&other != &site || u->span_end <= 0) return false;
        spans[u->object].emplace_back(u->span_first, u->span_end);
      }
  for (auto& [object, of_object] : spans) {
    std::sort(of_object.begin(), of_object.end());
    for (std::size_t i = 1; i < of_object.size(); ++i)
      if (of_object[i].first < of_object[i - 1].second) return false;
  }
  return true;
}

bool Generator::in_region_function(const TaskSite& site) {
  const SourceSite& on = set_.instance(1).start_site;
  return on.known() && on.file == site.file &&
         text(site.file).function_body(on.line) == text(site.file).function_body(site.start);
}

bool Generator::read_after_tracing(const TaskSite& site, const std::string& name) {
  const SourceSite& off = set_.instance(1).end_site;
  if (!off.known() || off.file != site.file) return false;
  const SourceText& source = text(site.file);
  int body = source.function_body(off.line);
  if (body == 0 || body != source.function_body(site.start)) return false;
  for (int l = off.line + 1; l <= source.size() && source.function_body(l) == body; ++l) {
    const std::string& code = source.code(l);
    for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
      if (!is_word_at(code, at, name.size())) continue;
      std::size_t next = code.find_first_not_of(" \t", at + name.size());
      bool assigned =
          next != std::string::npos && code[next] == '=' && code.compare(next, 2, "==") != 0;
      if (!assigned) return true;
      // `total = total / n;` reads it all the same
      std::size_t end = code.find_first_of(";,)", next);
      std::vector<std::string> right =
          identifiers(code.substr(next + 1, end == std::string::npos ? end : end - next - 1));
      return std::find(right.begin(), right.end(), name) != right.end();
    }
  }
  return false;
}

Clauses Generator::clauses_of(const TaskSite& site) {
  std::vector<std::string> order;
  std::map<std::string, std::pair<bool, bool>> access;  // item -> read, written
  for (const auto& [object, use] : site_uses(site))
    for (const std::string& item : items_for(object, use)) {
      auto [it, fresh] = access.try_emplace(item, use.read, use.written);
      if (fresh) order.push_back(item);
      it->second.first = it->second.first || use.read;
      it->second.second = it->second.second || use.written;
    }
  Clauses clauses;
  for (const std::string& item : order) {
    auto [read, written] = access[item];
    (read && written ? clauses.inout : written ? clauses.out : clauses.in).push_back(item);
  }
  return clauses;
}

std::vector<const trace::TaskUse*> Generator::subtree_uses(int id) const {
  std::vector<const trace::TaskUse*> uses;
  std::set<int> temporaries;
  std::vector<int> stack = {id};
  while (!stack.empty()) {
    const trace::TaskInstance& in = set_.instance(stack.back());
    stack.pop_back();
    for (const trace::TaskUse& u : set_.uses(in)) {
      if (u.local) temporaries.insert(u.object);
      // (a descendant's stack is its own, or its caller's: the instance's code, whose locals
      // are the instance's; not what the instance's clauses name)
      const trace::TaskObject* o = set_.object(u.object);
      if (in.id == id || !(o && o->kind == "stack")) uses.push_back(&u);
    }
    stack.insert(stack.end(), set_.children(in).begin(), set_.children(in).end());
  }
  uses.erase(std::remove_if(uses.begin(), uses.end(),
                            [&](const trace::TaskUse* u) { return temporaries.count(u->object); }),
             uses.end());
  return uses;
}

const std::map<int, SiteUse>& Generator::site_uses(const TaskSite& site) {
  auto cached = site_uses_.find({site.file, site.start});
  if (cached != site_uses_.end()) return cached->second;
  std::map<int, SiteUse>& uses = site_uses_[{site.file, site.start}];
  for (int id : site.instances)
    for (const trace::TaskUse* use : subtree_uses(id)) {
      const trace::TaskUse& u = *use;
      const trace::TaskObject* o = set_.object(u.object);
      if (o == nullptr || !counts(*o, u, site)) continue;
      std::int64_t first = u.span_end > 0 ? u.span_first : 0;
      std::int64_t end = u.span_end > 0 ? u.span_end : o->size;
      auto [it, fresh] = uses.try_emplace(u.object, SiteUse{first, end});
      it->second.first = std::min(it->second.first, first);
      it->second.end = std::max(it->second.end, end);
      it->second.read = it->second.read || u.read > 0;
      it->second.written = it->second.written || u.written > 0;
    }
  return uses;
}

bool Generator::counts(const trace::TaskObject& o, const trace::TaskUse& u, const TaskSite& site) {
  if (u.disabled) {
    std::string update =
        critical_sites_.count({site.file, site.start})
            ? "its code between tareador_disable_object and tareador_enable_object is a "
              "critical section (a reduction would be faster)"
        : called_critical_
            ? "the code between tareador_disable_object and tareador_enable_object in the "
              "functions it calls is a critical section where that code creates no task (a "
              "reduction would be faster)"
            : "the parallel code needs an atomic update (or a reduction) there (not generated: "
              "its code has no tareador_disable_object and tareador_enable_object around "
              "whole statements, has its own atomic or critical there, or creates tasks)";
    note_once(o.name, "task " + site.type + " updates " + o.name +
                          " while it is disabled: no depend clause names it; " + update +
                          "; and a taskwait before the code that reads the result (generated "
                          "before a task that reads it and for a local of the creating "
                          "function, not before the creating code's reads of a global)");
    return false;
  }
  auto buffers = frame_buffers_.find({site.file, site.start});
  if (o.kind == "stack" && buffers != frame_buffers_.end() && buffers->second.count(o.name))
    note_once(o.name, "task " + site.type + " uses " + o.name +
                          ", on the stack of the function that creates it or of a caller, "
                          "through a pointer: no copy of it is made, so the creating function "
                          "waits for the task before it returns");
  else if (o.kind == "stack" && !o.caller && u.written == 0 &&
           !shared_locals_.count(local_key(site, o.name)))
    note_once(o.name, "task " + site.type + " uses " + o.name +
                          " on the stack: locals are copied into the task (firstprivate), "
                          "not named in clauses");
  return o.kind == "heap" || o.kind == "global" || o.caller;
}

void Generator::note_once(const std::string& key, const std::string& note) {
  if (noted_.insert(key).second) notes_.push_back(note);
}

std::vector<std::string> Generator::items_for(int object, const SiteUse& use) {
  const NamedObject& named = name_of(object);
  std::vector<std::string> items;
  for (const auto& [first, end] : pieces(object, named))
    if (first < use.end && end > use.first)
      items.push_back(list_item(named, first, end, options_.dialect));
  return items;
}

std::vector<std::pair<std::int64_t, std::int64_t>> Generator::pieces(int object,
                                                                     const NamedObject& named) {
  auto cached = pieces_.find(object);
  if (cached != pieces_.end()) return cached->second;
  std::int64_t element = named.element > 0 ? named.element : 0;
  std::vector<std::pair<SiteKey, SiteUse>> spans;
  std::set<std::int64_t> cuts;
  for (const auto& [key, site] : sites_) {
    const auto& uses = site_uses(site);
    auto it = uses.find(object);
    if (it == uses.end()) continue;
    spans.emplace_back(key, it->second);
    if (element == 0) continue;
    cuts.insert(it->second.first / element * element);
    cuts.insert((it->second.end + element - 1) / element * element);
  }
  if (element == 0 || named.name.rfind("tareador_dep_", 0) == 0) {
    cuts = {0, named.size};
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  std::set<SiteKey> last_users;
  for (auto it = cuts.begin(); it != cuts.end() && std::next(it) != cuts.end(); ++it) {
    std::int64_t first = *it, end = *std::next(it);
    std::set<SiteKey> users;
    for (const auto& [key, use] : spans)
      if (use.first < end && use.end > first) users.insert(key);
    if (users.empty()) continue;
    if (!out.empty() && out.back().second == first && users == last_users) out.back().second = end;
    else out.emplace_back(first, end);
    last_users = users;
  }
  return pieces_[object] = out;
}

const NamedObject& Generator::name_of(int object) {
  auto it = names_.find(object);
  if (it != names_.end()) return it->second;
  const trace::TaskObject& o = *set_.object(object);
  NamedObject named = o.kind == "heap" ? heap_name(o) : o.caller ? caller_name(o) : global_name(o);
  named.size = o.size;
  if (named.name.empty() || (!o.caller && !visible_everywhere(object, named))) named = stand_in(o);
  else if ((o.kind == "heap" || named.pointer) && named.element == 0) named = stand_in(o);
  return names_[object] = named;
}

NamedObject Generator::caller_name(const trace::TaskObject& o) {
  NamedObject named;
  for (const SiteKey& key : users().at(o.id)) {
    const TaskSite& site = sites_.at(key);
    const SourceText& source = text(site.file);
    int body = source.function_body(site.start);
    if (body == 0) return {};
    std::vector<Declaration> parameters = source.parameters(body);
    std::vector<Declaration> visible = parameters;
    for (const Declaration& d : source.declarations(body + 1, site.start))
      if (in_scope(source, d, site.start)) visible.push_back(d);
    auto d = std::find_if(visible.rbegin(), visible.rend(),
                          [&](const Declaration& v) { return v.name == o.name; });
    if (d == visible.rend()) return {};
    NamedObject here{d->name, false, 0, 0};  // a reference: the object itself, whole
    if (!d->reference) {
      bool one_dimension =
          d->stars == 1 ? d->dimensions == 0 : is_parameter(parameters, *d) && d->dimensions == 1;
      if (!one_dimension || assigned_again(site.file, *d, d->line)) return {};
      here = NamedObject{d->name, true, basic_type_size(d->base_type), 0};
    }
    // (every site must name it alike: one name serves them all)
    if (!named.name.empty() && (here.pointer != named.pointer || here.element != named.element))
      return {};
    named = here;
  }
  return named;
}

NamedObject Generator::heap_name(const trace::TaskObject& o) {
  std::size_t at = o.name.find('@'), colon = o.name.rfind(':');
  int same_site = 0;
  for (const auto& [id, use_sites] : users())
    if (set_.object(id)->name == o.name) ++same_site;
  if (at == std::string::npos || colon == std::string::npos || colon < at || same_site > 1)
    return {};
  std::string file = o.name.substr(at + 1, colon - at - 1);
  int line = std::atoi(o.name.c_str() + colon + 1);
  for (int f = 0; f < static_cast<int>(set_.source_files.size()); ++f) {
    if (fs::path(set_.source_files[static_cast<std::size_t>(f)]).filename() != file) continue;
    const SourceText& source = text(f);
    if (line < 1 || line > source.size()) return {};
    std::optional<Declaration> d = assigned_variable(source, line);
    if (!d || d->stars == 0 || assigned_again(f, *d, line)) return {};
    NamedObject named{d->name, true, d->stars > 1 ? 8 : basic_type_size(d->base_type), 0};
    declared_[d->name] = {f, *d};
    return named;
  }
  return {};
}

std::optional<Declaration> Generator::assigned_variable(const SourceText& source, int line) {
  std::vector<Declaration> here = source.declarations(line, line);
  if (here.size() == 1) return here.front();
  std::vector<std::string> words = identifiers(source.code(line));
  const std::string& code = source.code(line);
  std::size_t name = code.find_first_not_of(" \t");
  if (words.empty() || name == std::string::npos ||
      code.compare(name, words[0].size(), words[0]) != 0 ||
      code.find_first_not_of(" \t", name + words[0].size()) != code.find('='))
    return std::nullopt;
  int body = source.function_body(line);
  for (const Declaration& d : source.declarations(body + 1, line))
    if (d.name == words[0]) return d;
  for (const Declaration& d : source.parameters(body))
    if (d.name == words[0]) return d;
  return source.global_declaration(words[0]);
}

bool Generator::assigned_again(int file, const Declaration& d, int line) {
  std::set<int> files = {file};
  if (file_scope(text(file), d))
    for (const auto& [key, site] : sites_) files.insert(key.first);
  for (int f : files) {
    const SourceText& source = text(f);
    auto statement = [&](int l) { return source.statement_range(l, l, source.depth_before(l)); };
    auto [alloc_first, alloc_last] = f == file ? statement(line) : std::pair{0, 0};
    // (A parameter's line is its function's brace, at depth 0 but not at file scope.)
    bool declared_here = f == file && (source.depth_before(d.line) > 0 || file_scope(source, d));
    auto [decl_first, decl_last] = declared_here ? statement(d.line) : std::pair{0, 0};
    // A local's scope: from its declaration to the end of its block (a parameter's: the body).
    int first = 1, last = source.size();
    if (f == file && !file_scope(source, d)) {
      int depth = std::max(1, source.depth_before(d.line));
      first = d.line;
      for (last = d.line + 1; last < source.size() && source.depth_min(last) >= depth;) ++last;
    }
    for (int l = first; l <= last; ++l)
      if (!(alloc_first <= l && l <= alloc_last) && !(decl_first <= l && l <= decl_last) &&
          assigns(source.code(l), d.name))
        return true;
  }
  return false;
}

bool Generator::assigns(const std::string& code, const std::string& name) {
  for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
    if (!is_word_at(code, at, name.size())) continue;
    std::size_t next = code.find_first_not_of(" \t", at + name.size());
    std::size_t before = at == 0 ? std::string::npos : code.find_last_not_of(" \t", at - 1);
    std::string after = next == std::string::npos ? "" : code.substr(next, 2);
    std::string prior =
        before == std::string::npos || before == 0 ? "" : code.substr(before - 1, 2);
    bool address = before != std::string::npos && code[before] == '&' && prior != "&&" &&
                   after.compare(0, 1, "[") != 0;  // `&img`, not `&img[i]` nor `a && img`
    bool pointee = before != std::string::npos && code[before] == '*';  // `*p = v`, `*p += v`
    bool assigned =
        (!after.empty() && after[0] == '=' && after != "==") || after == "+=" || after == "-=";
    if ((assigned && !pointee) || after == "++" || after == "--" || prior == "++" ||
        prior == "--" || address)
      return true;
  }
  return false;
}

NamedObject Generator::global_name(const trace::TaskObject& o) {
  if (o.name.find_first_of(".@") != std::string::npos) return {};
  for (int f = 0; f < static_cast<int>(set_.source_files.size()); ++f) {
    std::optional<Declaration> d = text(f).global_declaration(o.name);
    if (!d) continue;
    declared_[o.name] = {f, *d};
    std::int64_t element = d->dimensions != 1 ? 0 : d->stars ? 8 : basic_type_size(d->base_type);
    return NamedObject{o.name, false, element, 0};
  }
  return {};
}

bool Generator::visible_everywhere(int object, const NamedObject& named) {
  const auto& [file, d] = declared_.at(named.name);
  const SourceText& source = text(file);
  bool global = file_scope(source, d);
  for (const SiteKey& key : users().at(object)) {
    if (key.first != file || key.second <= d.line || hidden_at(source, d, key.second)) return false;
    if (global) continue;
    if (source.function_body(d.line) != source.function_body(key.second) ||
        !in_scope(source, d, key.second))
      return false;
  }
  return true;
}

bool Generator::file_scope(const SourceText& source, const Declaration& d) {
  std::optional<Declaration> global = source.global_declaration(d.name);
  return global && global->line == d.line;
}

bool Generator::hidden_at(const SourceText& source, const Declaration& d, int line) {
  int body = source.function_body(line);
  if (body == 0) return false;
  // Declared after d (a parameter's line is its function's brace): nearer the line than d.
  auto hides = [&](const Declaration& o) { return o.name == d.name && o.line > d.line; };
  for (const Declaration& p : source.parameters(body))
    if (hides(p)) return true;
  for (const Declaration& l : source.declarations(body + 1, line))
    if (hides(l) && in_scope(source, l, line)) return true;
  return false;
}

NamedObject Generator::stand_in(const trace::TaskObject& o) {
  auto [it, fresh] =
      stand_ins_.try_emplace(o.name, "tareador_dep_" + std::to_string(stand_ins_.size()));
  if (fresh)
    notes_.push_back(o.name + " is not named where the tasks use it: " + it->second +
                     " stands for it in the clauses (a dependency on the whole of it, and on "
                     "every other block allocated there)");
  for (const SiteKey& key : users().at(o.id)) declare_stand_in(key.first, it->second, o.name);
  return NamedObject{it->second, false, 0, o.size};
}

void Generator::declare_stand_in(int file, const std::string& name, const std::string& object) {
  if (!stand_in_files_.insert({file, name}).second) return;
  const SourceText& source = text(file);
  // After the includes, outside the conditionals that hold one (`#ifdef TRACE` around
  // `#include <tareador.h>`): the clauses that name it are in every build. Not past one that
  // holds the file's tasks too (an include guard): it is in their builds.
  int first_task = source.size() + 1, after = 0;
  for (const auto& [key, site] : sites_)
    if (key.first == file) first_task = std::min(first_task, key.second);
  for (int l = 1; l <= source.size(); ++l) {
    if (source.directive(l) != "include") continue;
    int endif = source.outside_conditionals(l);
    after = std::max(after, endif != 0 && endif < first_task ? endif : l);
  }
  insert(file, after + 1, Place::RegionOpen,
         "char " + name + " __attribute__((weak)); /* stands for " + object +
             " in the task clauses */");
}

const std::map<int, std::set<SiteKey>>& Generator::users() {
  if (users_.empty())
    for (const auto& [key, site] : sites_)
      for (int id : site.instances)
        for (const trace::TaskUse* u : subtree_uses(id)) users_[u->object].insert(key);
  return users_;
}

EmitResult Generator::write() {
  EmitResult result;
  std::vector<int> files;
  for (const auto& [file, pending] : pending_) files.push_back(file);
  fs::path root;
  for (int f : files) {
    fs::path dir = paths_[f].parent_path();
    if (root.empty()) {
      root = dir;
      continue;
    }
    fs::path common;
    for (auto a = root.begin(), b = dir.begin(); a != root.end() && b != dir.end() && *a == *b;
         ++a, ++b)
      common /= *a;
    root = common;
  }
  std::sort(files.begin(), files.end(), [&](int a, int b) { return paths_[a] < paths_[b]; });
  for (int f : files) {
    std::vector<Pending>& pending = pending_[f];
    std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
      return std::tie(a.before, a.place, a.sequence) < std::tie(b.before, b.place, b.sequence);
    });
    std::vector<Insertion> insertions;
    for (const Pending& p : pending) insertions.push_back(Insertion{p.before, p.text, p.replaces});
    std::string name = paths_[f].lexically_relative(root).generic_string();
    const SourceText& source = text(f);
    result.diff +=
        unified_diff("a/" + name, "b/" + name, source.lines(), insertions, source.final_newline());
  }
  result.root = root.string();
  result.notes = notes_;
  return result;
}

}  // namespace emit_detail

EmitResult emit_source(const trace::TaskSet& set, const EmitOptions& options) {
  return emit_detail::Generator(set, options).run();
}

}  // namespace tareador::tasks
