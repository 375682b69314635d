// The annotated source (emit_source.h): which lines get which pragma, and the names of the
// objects in the clauses. docs/emit-source.md says what is generated and why.
#include "tasks/emit_source.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "tasks/source_text.h"

namespace tareador::tasks {

namespace {

namespace fs = std::filesystem;
using trace::SourceSite;
using trace::TaskSet;

// What goes before a line, in this order when several things do (a region ends before the
// line after its last statement, where a taskwait after it may go).
enum class Place { RegionClose, RegionOpen, TaskOpen, Taskwait, TaskClose };

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
  bool creates = false;  // its instances create tasks
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

  EmitResult run() {
    if (std::none_of(set_.instances.begin(), set_.instances.end(),
                     [](const trace::TaskInstance& i) { return i.start_site.known(); }))
      throw std::runtime_error(
          "the trace records no source lines (traced before format version 3, or the program "
          "has no debug information: compile it with -g)");
    collect_sites();
    find_shared_locals();
    place_regions();  // (first: a declaration used after the region is declared before it)
    for (const auto& [key, site] : sites_) place_task(site);
    place_taskwaits();
    return write();
  }

 private:
  // ---- Sources -------------------------------------------------------------------------------

  const SourceText& text(int file) {
    auto it = texts_.find(file);
    if (it != texts_.end()) return it->second;
    fs::path path = set_.source_files[static_cast<std::size_t>(file)];
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

  std::string where(int file, int line) const {
    return set_.source_files[static_cast<std::size_t>(file)] + ":" + std::to_string(line);
  }

  void insert(int file, int before, Place place, const std::string& text) {
    pending_[file].push_back(Pending{before, place, sequence_++, text});
  }
  void replace(int file, int line, const std::string& text) {
    pending_[file].push_back(Pending{line, Place::RegionOpen, sequence_++, text, true});
  }

  // ---- Tasks ---------------------------------------------------------------------------------

  void collect_sites() {
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
                                 std::to_string(site.end) + " and at line " +
                                 std::to_string(e.line) + ": one task per start and end, please");
      site.instances.push_back(in.id);
      site.creates = site.creates || !set_.children(in).empty();
    }
  }

  void place_task(const TaskSite& site) {
    const SourceText& source = text(site.file);
    if (site.end > source.size())
      throw std::runtime_error(where(site.file, site.end) + ": past the end of the file (" +
                               std::to_string(source.size()) + " lines): not the traced source?");
    Clauses clauses = clauses_of(site);
    share_locals(site, locals_used(source, site), clauses);
    hoist_declarations(site.file, site.start + 1, site.end - 1, site.start + 1, "task");
    std::string indent = source.indent(site.start);
    insert(site.file, site.start + 1, Place::TaskOpen,
           indent + task_pragma(clauses, options_.dialect));
    insert(site.file, site.start + 1, Place::TaskOpen, indent + "{");
    // OpenMP does not wait for a task's children when it ends; its siblings may need them.
    if (site.creates) insert(site.file, site.end, Place::Taskwait, indent + "#pragma omp taskwait");
    insert(site.file, site.end, Place::TaskClose, indent + "}");
  }

  // The creating function's variables the task's code uses, declared in blocks still open at
  // the task (not in a block closed before it: `{ int i; ... }` of an earlier loop).
  static std::vector<Declaration> locals_used(const SourceText& source, const TaskSite& site) {
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

  // Whether declaration `d` is in scope at line `line` (after it): no block it is in closes
  // from its line to that one.
  static bool in_scope(const SourceText& source, const Declaration& d, int line) {
    int depth = source.depth_before(d.line);
    for (int l = d.line; l <= line; ++l)
      if (source.depth_min(l) < depth) return false;
    return true;
  }

  // A local of a function, by its file, the line of its function's body and its name.
  using LocalKey = std::tuple<int, int, std::string>;

  LocalKey local_key(const TaskSite& site, const std::string& name) {
    return {site.file, text(site.file).function_body(site.start), name};
  }

  // The creating code's locals tasks write that must be shared, not copied into the tasks (the
  // writes would be lost), each with whether the depend clauses order it (not when disabled:
  // an accumulator's updates need atomic and a taskwait, as the notes say). Shared are those
  // the creating code reads afterwards (a result: `residual = step(u, n)`, where a taskwait
  // goes before the read), those updated while disabled (no read waits for them: outside the
  // region's function, a taskwait goes before the code after the tasks reads them or returns), and, in the function that holds the
  // parallel region (whose locals outlive it), those a sibling task reads or the code after
  // tareador_OFF reads. Others stay copies: shared, a local of a function that may return
  // before its tasks run would be gone.
  void find_shared_locals() {
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
          // Disabled, no read the trace saw waits for it: its function waits before it returns.
          if (u.disabled && !outlives) unwaited_disabled_[key].insert(o->name);
          auto [it, fresh] = shared_locals_.try_emplace(local, !u.disabled);
          it->second = it->second && !u.disabled;
        }
    }
  }

  // Of the variables the site's code uses, those shared (find_shared_locals) are shared and in
  // its depend clauses (out or inout where it writes them, in where it only reads them); the
  // others are copied (arrays by default, not named: a copy of each is what they would get),
  // but C++ references, shared.
  void share_locals(const TaskSite& site, const std::vector<Declaration>& used, Clauses& clauses) {
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

  // Whether each instance of the site uses its own part of the local array `name` and no other
  // site of the function uses it (`partial[b]` of block b): then the tasks need no order among
  // them (one pragma names the whole array for all of them, which would serialise them), only
  // the taskwait before the code that reads it.
  bool elements_apart(const TaskSite& site, const std::string& name) {
    LocalKey local = local_key(site, name);
    std::vector<std::pair<std::int64_t, std::int64_t>> spans;
    for (const auto& [key, other] : sites_)
      for (int id : other.instances)
        for (const trace::TaskUse* u : subtree_uses(id)) {
          const trace::TaskObject* o = set_.object(u->object);
          if (o == nullptr || o->kind != "stack" || local_key(other, o->name) != local) continue;
          if (&other != &site || u->span_end <= 0) return false;
          spans.emplace_back(u->span_first, u->span_end);
        }
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i)
      if (spans[i].first < spans[i - 1].second) return false;
    return true;
  }

  // Whether the site is in the function that holds tareador_ON (the parallel region's).
  bool in_region_function(const TaskSite& site) {
    const SourceSite& on = set_.instance(1).start_site;
    return on.known() && on.file == site.file &&
           text(site.file).function_body(on.line) == text(site.file).function_body(site.start);
  }

  // Whether the code after tareador_OFF in the function that holds the site reads `name` before
  // it writes it (a loop counter set again, `for (i = 0; ...)`, does not need the task's; an
  // assignment that reads it, `total = total / n`, does).
  bool read_after_tracing(const TaskSite& site, const std::string& name) {
    const SourceSite& off = set_.instance(1).end_site;
    if (!off.known() || off.file != site.file) return false;
    const SourceText& source = text(site.file);
    int body = source.function_body(off.line);
    if (body == 0 || body != source.function_body(site.start)) return false;
    for (int l = off.line + 1; l <= source.size() && source.function_body(l) == body; ++l) {
      const std::string& code = source.code(l);
      for (std::size_t at = code.find(name); at != std::string::npos;
           at = code.find(name, at + 1)) {
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

  // ---- Objects and clauses -------------------------------------------------------------------

  // Each item once, in the clause of what the site's instances do to it (a stand-in may
  // stand for several objects).
  Clauses clauses_of(const TaskSite& site) {
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

  // The uses of an instance and of the tasks it creates, directly or not: a task's clauses
  // order it with its siblings for all of them. Heap blocks one of them allocated and freed
  // (TaskUse::local) are the subtree's own temporaries, in no clause.
  std::vector<const trace::TaskUse*> subtree_uses(int id) const {
    std::vector<const trace::TaskUse*> uses;
    std::set<int> temporaries;
    std::vector<int> stack = {id};
    while (!stack.empty()) {
      const trace::TaskInstance& in = set_.instance(stack.back());
      stack.pop_back();
      for (const trace::TaskUse& u : set_.uses(in)) {
        uses.push_back(&u);
        if (u.local) temporaries.insert(u.object);
      }
      stack.insert(stack.end(), set_.children(in).begin(), set_.children(in).end());
    }
    uses.erase(
        std::remove_if(uses.begin(), uses.end(),
                       [&](const trace::TaskUse* u) { return temporaries.count(u->object); }),
        uses.end());
    return uses;
  }

  const std::map<int, SiteUse>& site_uses(const TaskSite& site) {
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

  // Whether a use belongs in the clauses: the program's heap blocks and globals do; what is
  // left out is noted once per object.
  bool counts(const trace::TaskObject& o, const trace::TaskUse& u, const TaskSite& site) {
    if (u.disabled) {
      note_once(o.name, "task " + site.type + " updates " + o.name +
                            " while it is disabled: no depend clause names it; the parallel "
                            "code needs an atomic update (or a reduction) there (not generated), "
                            "and a taskwait before the code that reads the result (generated "
                            "before a task that reads it and for a local of a function other "
                            "than the region's, not before other reads of the creating code)");
      return false;
    }
    if (o.kind == "stack" && u.written == 0 && !shared_locals_.count(local_key(site, o.name)))
      note_once(o.name, "task " + site.type + " uses " + o.name +
                            " on the stack: locals are copied into the task (firstprivate), "
                            "not named in clauses");
    return o.kind == "heap" || o.kind == "global";
  }

  void note_once(const std::string& key, const std::string& note) {
    if (noted_.insert(key).second) notes_.push_back(note);
  }

  // The list items of `object` for a site: the pieces of it the site touches, cut where any
  // site's span begins or ends, so that every task names identical or disjoint storage (as
  // OpenMP requires of the items of sibling tasks).
  std::vector<std::string> items_for(int object, const SiteUse& use) {
    const NamedObject& named = name_of(object);
    std::vector<std::string> items;
    for (const auto& [first, end] : pieces(object, named))
      if (first < use.end && end > use.first)
        items.push_back(list_item(named, first, end, options_.dialect));
    return items;
  }

  // The pieces of an object: cut at every site's span ends (whole elements), adjacent pieces
  // used by the same sites joined.
  std::vector<std::pair<std::int64_t, std::int64_t>> pieces(int object, const NamedObject& named) {
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
      if (!out.empty() && out.back().second == first && users == last_users)
        out.back().second = end;
      else out.emplace_back(first, end);
      last_users = users;
    }
    return pieces_[object] = out;
  }

  const NamedObject& name_of(int object) {
    auto it = names_.find(object);
    if (it != names_.end()) return it->second;
    const trace::TaskObject& o = *set_.object(object);
    NamedObject named = o.kind == "heap" ? heap_name(o) : global_name(o);
    named.size = o.size;
    if (named.name.empty() || !visible_everywhere(object, named)) named = stand_in(o);
    else if (o.kind == "heap" && named.element == 0) named = stand_in(o);
    return names_[object] = named;
  }

  // A heap block by the variable its allocation was assigned to (`double* u = malloc(..)`),
  // when no other block the tasks use was allocated there.
  NamedObject heap_name(const trace::TaskObject& o) {
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
      if (!d || d->stars == 0) return {};
      NamedObject named{d->name, true, d->stars > 1 ? 8 : basic_type_size(d->base_type), 0};
      declared_[d->name] = {f, *d};
      return named;
    }
    return {};
  }

  // The variable the statement at `line` declares or assigns to.
  static std::optional<Declaration> assigned_variable(const SourceText& source, int line) {
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

  // A global by its symbol, with the element size its declaration gives (one-dimensional
  // arrays only: sections of the first dimension of a matrix would count rows).
  NamedObject global_name(const trace::TaskObject& o) {
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

  // Whether the name is in scope at every task site that uses the object.
  bool visible_everywhere(int object, const NamedObject& named) {
    const auto& [file, d] = declared_.at(named.name);
    const SourceText& source = text(file);
    for (const SiteKey& key : users().at(object)) {
      if (key.first != file || key.second <= d.line) return false;
      if (source.depth_before(d.line) == 0) continue;
      if (source.function_body(d.line) != source.function_body(key.second) ||
          !in_scope(source, d, key.second))
        return false;
    }
    return true;
  }

  // An object the source cannot name where the tasks are made: a variable of its own stands
  // for it (for every block of its allocation site), declared at the top of each file that
  // uses it, weak so that the files' declarations are one variable (sibling tasks created in
  // two files must name the same one to be ordered).
  NamedObject stand_in(const trace::TaskObject& o) {
    auto [it, fresh] =
        stand_ins_.try_emplace(o.name, "tareador_dep_" + std::to_string(stand_ins_.size()));
    if (fresh)
      notes_.push_back(o.name + " is not named where the tasks use it: " + it->second +
                       " stands for it in the clauses (a dependency on the whole of it, and on "
                       "every other block allocated there)");
    for (const SiteKey& key : users().at(o.id)) declare_stand_in(key.first, it->second, o.name);
    return NamedObject{it->second, false, 0, o.size};
  }

  void declare_stand_in(int file, const std::string& name, const std::string& object) {
    if (!stand_in_files_.insert({file, name}).second) return;
    const SourceText& source = text(file);
    int after = 0;
    for (int l = 1; l <= source.size(); ++l)
      if (source.line(l).rfind("#include", 0) == 0) after = l;
    insert(file, after + 1, Place::RegionOpen,
           "char " + name + " __attribute__((weak)); /* stands for " + object +
               " in the task clauses */");
  }

  // The sites that use each object.
  const std::map<int, std::set<SiteKey>>& users() {
    if (users_.empty())
      for (const auto& [key, site] : sites_)
        for (int id : site.instances)
          for (const trace::TaskUse* u : subtree_uses(id)) users_[u->object].insert(key);
    return users_;
  }

  // ---- Taskwaits and the parallel region -----------------------------------------------------

  // Where an instance's own code first reads what a task it created produced: at the line the
  // trace gives, when it is code of the function that created the tasks, after their creation;
  // else (the read is in a function inlined there, whose lines the debug information gives)
  // right after the statement that created the last task before the read.
  void place_taskwaits() {
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
    wait_before_reduction_readers();
  }

  // A task that reads what earlier tasks updated while it was disabled (a reduction: no
  // dependency orders the read after them, and in() would not next to atomic updates; the
  // report's [reduction-read]): its creator waits for them before it creates it, when they
  // are its children or theirs (a task waits for its children at its end).
  void wait_before_reduction_readers() {
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

  // The waits for the disabled locals `names` the site's tasks write, of a function that is not
  // the region's (no read the trace saw waits for them, and its frame must outlive the tasks):
  // before each return in the statement that holds the site (a loop that creates the tasks
  // may return on a later turn), then before the first statement after it that names one of
  // them or returns, else at the function's end.
  void wait_for_disabled(const TaskSite& site, const std::set<std::string>& names) {
    const SourceText& source = text(site.file);
    int body = source.function_body(site.start);
    if (body == 0) return;
    int end = body;  // the line of the function's closing brace
    while (end < source.size() && source.depth_after(end) > 0) ++end;
    auto [first, last] = source.statement_range(site.start, site.end, 1);
    auto wait_before_statement = [&](int l) {
      wait_at({site.file, source.statement_range(l, l, source.depth_before(l)).first});
    };
    auto names_any = [&](int l, const std::set<std::string>& words) {
      std::vector<std::string> here = identifiers(source.code(l));
      return std::any_of(here.begin(), here.end(),
                         [&](const std::string& w) { return words.count(w) > 0; });
    };
    for (int l = first; l <= last; ++l)
      if (names_any(l, {"return"}) && !in_task_code(site.file, l)) wait_before_statement(l);
    std::set<std::string> reads = names;
    reads.insert("return");
    for (int l = last + 1; l < end; ++l)
      if (names_any(l, reads)) return wait_before_statement(l);
    wait_at({site.file, end});
  }

  bool in_task_code(int file, int line) const {
    return std::any_of(sites_.begin(), sites_.end(), [&](const auto& entry) {
      return entry.second.file == file && entry.second.start < line && line < entry.second.end;
    });
  }

  // Where a wait for a read at `at` goes: there, or, when `at` is the head of a `while` or
  // `for` loop (its condition reads the result), before the loop's last line, so that every
  // test of the condition after the first waits too.
  SourceSite before_each_test(const SourceSite& at) {
    const SourceText& source = text(at.file);
    std::vector<std::string> names = identifiers(source.code(at.line));
    if (names.empty() || (names.front() != "while" && names.front() != "for")) return at;
    int last = source.statement_range(at.line, at.line, source.depth_before(at.line)).second;
    return last > at.line ? SourceSite{at.file, last} : at;
  }

  void wait_at(const SourceSite& at) {
    const SourceText& source = text(at.file);
    if (at.line > source.size() || !waited_.insert({at.file, at.line}).second) return;
    // Before a block's closing brace, at the depth of the block's statements.
    const std::string& code = source.code(at.line);
    bool closes = code.find_first_not_of(" \t") != std::string::npos &&
                  code[code.find_first_not_of(" \t")] == '}' && at.line > 1;
    insert(at.file, at.line, Place::Taskwait,
           source.indent(closes ? at.line - 1 : at.line) + "#pragma omp taskwait");
  }

  // Where to wait for task `from` whose result is read at `at`, when `at` is in the function
  // that holds the task's code (the loop that creates it, called from the traced code, or the
  // function that returns what it summed): at the read when it comes after the task's code,
  // else (a loop's condition) right after the task's code. Elsewhere: none.
  std::optional<SourceSite> in_its_function(const SourceSite& at, const trace::TaskInstance& from) {
    const SourceSite& end = from.end_site;
    if (!end.known() || at.file != end.file) return std::nullopt;
    const SourceText& source = text(at.file);
    if (at.line > source.size() || end.line + 1 > source.size() ||
        source.function_body(at.line) != source.function_body(end.line))
      return std::nullopt;
    return at.line > end.line ? at : SourceSite{end.file, end.line + 1};
  }

  // The last line of the statement that created child `c` of `in`: the task's end when it was
  // created right there, else the statement through which it was.
  SourceSite creation_end(const trace::TaskInstance& in, std::size_t c) {
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

  // `#pragma omp parallel` and `single` around the statements of the main task's code that
  // create its tasks (one region per function that does), at the depth of its tareador_ON
  // when that is in the function: the loops that create the tasks are in the region whole.
  void place_regions() {
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
      // The pragmas go between lines: the region's first line must start inside the function and
      // its last must not close it (`int main(void) { tareador_ON(); ...` on one line).
      if (source.depth_before(first) == 0 || source.depth_after(last) == 0)
        throw std::runtime_error(
            this->where(where.first, source.depth_before(first) == 0 ? first : last) +
            ": the parallel region's statements share this line with the function's " +
            (source.depth_before(first) == 0 ? "opening" : "closing") +
            " brace, so no pragma can go before them alone: put the statements from "
            "tareador_ON to tareador_OFF on lines of their own");
      std::string indent = source.indent(first);
      hoist_declarations(where.first, first, last, first, "parallel region");
      for (int l = first; l <= last; ++l) {
        std::vector<std::string> names = identifiers(source.code(l));
        if (std::find(names.begin(), names.end(), "return") != names.end() ||
            std::find(names.begin(), names.end(), "goto") != names.end())
          notes_.push_back(this->where(where.first, l) +
                           ": a return or goto inside the parallel region does not compile (no "
                           "branch may leave an OpenMP structured block): set a flag there and "
                           "act on it after the region");
      }
      insert(where.first, first, Place::RegionOpen, indent + "#pragma omp parallel");
      insert(where.first, first, Place::RegionOpen, indent + "#pragma omp single");
      insert(where.first, first, Place::RegionOpen, indent + "{");
      insert(where.first, last + 1, Place::RegionClose, indent + "}");
    }
  }

  // A declaration among the statements [first, last] of a block the diff adds (the parallel
  // region, a task), at their depth, whose variable the code after them uses would go out of
  // scope at the block's closing brace: it is declared before the block, at line `before`, and
  // assigned where it was (`double s = sumsq(v, n);` -> `double s;` before, `s = sumsq(v, n);`
  // inside; a declaration without a value leaves a comment). Only one declarator alone on its
  // line, not const.
  void hoist_declarations(int file, int first, int last, int before, const std::string& block) {
    const SourceText& source = text(file);
    int depth = source.depth_before(first), body = source.function_body(first);
    std::string after;
    for (int l = last + 1; l <= source.size() && source.function_body(l) == body; ++l)
      after += source.code(l) + "\n";
    std::vector<std::string> used = identifiers(after);
    std::vector<Declaration> declared = source.declarations(first, last);
    for (const Declaration& d : declared) {
      if (source.depth_before(d.line) != depth || d.dimensions > 0 ||
          hoisted_.count({file, d.line}) ||
          std::find(used.begin(), used.end(), d.name) == used.end() ||
          std::count_if(declared.begin(), declared.end(),
                        [&](const Declaration& o) { return o.line == d.line; }) != 1)
        continue;
      const std::string& code = source.code(d.line);
      std::size_t at = code.find(d.name);
      while (at != std::string::npos && !is_word_at(code, at, d.name.size()))
        at = code.find(d.name, at + 1);
      if (at == std::string::npos) continue;
      std::size_t next = code.find_first_not_of(" \t", at + d.name.size());
      std::string indent = source.indent(d.line);
      std::string type = code.substr(indent.size(), at - indent.size());
      bool valued = next != std::string::npos && code.compare(next, 1, "=") == 0 &&
                    code.compare(next, 2, "==") != 0;
      bool bare = next != std::string::npos && code.compare(next, 1, ";") == 0;
      if (!(valued || bare) || code.back() != ';' || identifiers(type).empty() ||
          type.find("const") != std::string::npos || type.find("static") != std::string::npos)
        continue;
      hoisted_.insert({file, d.line});
      insert(file, before, Place::RegionOpen, source.indent(first) + type + d.name + ";");
      replace(file, d.line,
              indent + (valued ? source.line(d.line).substr(at)
                               : "/* " + d.name + ": declared before the " + block + " */"));
      notes_.push_back(where(file, d.line) + ": " + d.name + ", used after the " + block +
                       ", is declared before it");
    }
  }

  static bool is_word_at(const std::string& code, std::size_t at, std::size_t length) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    return (at == 0 || !word(code[at - 1])) &&
           (at + length >= code.size() || !word(code[at + length]));
  }

  // ---- The diff ------------------------------------------------------------------------------

  EmitResult write() {
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
      for (const Pending& p : pending)
        insertions.push_back(Insertion{p.before, p.text, p.replaces});
      std::string name = paths_[f].lexically_relative(root).generic_string();
      const SourceText& source = text(f);
      result.diff += unified_diff("a/" + name, "b/" + name, source.lines(), insertions,
                                  source.final_newline());
    }
    result.root = root.string();
    result.notes = notes_;
    return result;
  }

  const TaskSet& set_;
  const EmitOptions& options_;
  std::map<SiteKey, TaskSite> sites_;
  std::map<int, SourceText> texts_;
  std::map<int, fs::path> paths_;
  std::map<int, std::vector<Pending>> pending_;
  std::size_t sequence_ = 0;
  std::map<int, NamedObject> names_;
  std::map<std::string, std::pair<int, Declaration>> declared_;  // name -> file, declaration
  std::map<int, std::vector<std::pair<std::int64_t, std::int64_t>>> pieces_;
  std::set<SiteKey> hoisted_;               // declarations moved before the block that held them
  std::map<LocalKey, bool> shared_locals_;  // find_shared_locals: ordered by depend clauses
  std::map<SiteKey, std::set<std::string>> unwaited_disabled_;  // wait_for_disabled
  std::set<SiteKey> waited_;                                    // lines a taskwait goes before
  std::map<std::string, std::string> stand_ins_;                // object name -> variable
  std::set<std::pair<int, std::string>> stand_in_files_;
  std::map<int, std::set<SiteKey>> users_;
  std::map<SiteKey, std::map<int, SiteUse>> site_uses_;
  std::vector<std::string> notes_;
  std::set<std::string> noted_;
};

}  // namespace

EmitResult emit_source(const TaskSet& set, const EmitOptions& options) {
  return Generator(set, options).run();
}

}  // namespace tareador::tasks
