// The porting hints: the clauses of each task type and the warnings (taskgraph.h).
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "tasks/races.h"
#include "tasks/support.h"
#include "tasks/taskgraph.h"

namespace tareador::tasks {

// ---- Porting hints -------------------------------------------------------------------------------

const char* clause_name(Clause c) {
  switch (c) {
    case Clause::In:
      return "in";
    case Clause::Out:
      return "out";
    case Clause::InOut:
      return "inout";
  }
  return "?";
}

namespace {

int code_rank(const std::string& code) {
  return code == "shared-global"    ? 0
         : code == "race"           ? 1
         : code == "reduction-read" ? 2
         : code == "stack-write"    ? 3
                                    : 4;
}

std::vector<std::string> type_names(const trace::TaskSet& set, const std::set<int>& types) {
  std::vector<std::string> names;
  for (int t : types) names.push_back(type_name(set, t));
  return names;
}

// Objects of one kind and name (the blocks of one allocation site, a variable of a recursive
// function) are one object in the hints.
using Group = std::pair<std::string, std::string>;  // kind, name

Group group_of(const trace::TaskSet& set, int id) {
  const trace::TaskObject* o = set.object(id);
  return o ? Group{o->kind, o->name} : Group{"?", object_name(set, id)};
}

// Bytes read and written.
struct Bytes {
  std::int64_t read = 0, written = 0;
};

// What the instances of one task type did, before it becomes hints.
struct TypeUses {
  std::size_t instances = 0;
  std::map<Group, ObjectUse> data;                 // the program's objects the clauses name
  std::map<Group, std::set<int>> members;          // the objects of each group the type used
  std::map<std::string, Bytes> locals;             // locals of the creating code: most per instance
  std::int64_t stack_read = 0, stack_written = 0;  // all of them, most per instance
  std::size_t stack_writers = 0;                   // instances that write such locals
  int first_stack_writer = 0;
  std::set<std::string> disabled;  // objects it used while they were disabled
  std::set<std::string> left_out;  // objects that are not the program's data
  std::set<Group> temporaries;     // blocks an instance allocated and freed (TaskUse::local)
};

// The heap blocks and globals the instances that `t` creates (directly or not) use, but not
// their temporaries or t's (TaskUse::local): t's clauses must name them too, so that t is
// ordered with its siblings for what its children do (the runtime orders siblings only).
std::vector<const trace::TaskUse*> descendants_data(const trace::TaskSet& set,
                                                    const trace::TaskInstance& t) {
  std::vector<const trace::TaskUse*> found;
  std::set<int> temporaries;
  for (const trace::TaskUse& u : set.uses(t))
    if (u.local) temporaries.insert(u.object);
  std::vector<int> todo(set.children(t).begin(), set.children(t).end());
  while (!todo.empty()) {
    if (!valid_instance(set, todo.back())) {
      todo.pop_back();
      continue;
    }
    const trace::TaskInstance& in = set.instance(todo.back());
    todo.pop_back();
    for (const trace::TaskUse& u : set.uses(in)) {
      if (u.local) temporaries.insert(u.object);
      const trace::TaskObject* o = set.object(u.object);
      // (not the stack: a descendant's caller may be t's own code, whose locals are t's)
      if (!u.disabled && o && program_data(o) && o->kind != "stack") found.push_back(&u);
    }
    todo.insert(todo.end(), set.children(in).begin(), set.children(in).end());
  }
  found.erase(std::remove_if(found.begin(), found.end(),
                             [&](const trace::TaskUse* u) { return temporaries.count(u->object); }),
              found.end());
  return found;
}

// The tool names an alloca block by its site: alloca@FILE:LINE.
bool alloca_block(const std::string& name) { return name.rfind("alloca@", 0) == 0; }

// One instance's uses added to its type's: its own, and the data of the instances it creates.
void add_instance(const trace::TaskSet& set, const trace::TaskInstance& t, TypeUses& tu) {
  ++tu.instances;
  std::map<Group, Bytes> data;
  std::map<std::string, Bytes> locals;
  std::map<int, Bytes> per_object;  // program data, by object
  Bytes stack;
  std::vector<const trace::TaskUse*> uses;
  for (const trace::TaskUse& u : set.uses(t)) uses.push_back(&u);
  for (const trace::TaskUse* u : descendants_data(set, t)) uses.push_back(u);
  for (const trace::TaskUse* use : uses) {
    const trace::TaskUse& u = *use;
    if (u.local) {  // (even untouched: a block its children use and free)
      tu.temporaries.insert(group_of(set, u.object));
      continue;
    }
    Bytes b{std::max<std::int64_t>(u.read, 0), std::max<std::int64_t>(u.written, 0)};
    if (b.read == 0 && b.written == 0) continue;
    const trace::TaskObject* o = set.object(u.object);
    std::string name = object_name(set, u.object);
    if (u.disabled) {
      tu.disabled.insert(name);
    } else if (!program_data(o)) {
      tu.left_out.insert(name);
    } else if (!(creator_local(o) && name.rfind("__", 0) == 0)) {
      // (not the compiler's own variables: a range-for's __for_begin)
      per_object[u.object].read += b.read;
      per_object[u.object].written += b.written;
    }
  }
  // The instance and its descendants may each have used the same bytes: at most the object.
  for (auto [object, b] : per_object) {
    const trace::TaskObject* o = set.object(object);
    if (o && o->size > 0) {
      b.read = std::min(b.read, o->size);
      b.written = std::min(b.written, o->size);
    }
    if (creator_local(o)) {
      std::string name = object_name(set, object);
      locals[name].read += b.read;
      locals[name].written += b.written;
      if (alloca_block(name)) continue;  // (not copied: no firstprivate bytes)
      stack.read += b.read;
      stack.written += b.written;
    } else {
      Group g = group_of(set, object);
      data[g].read += b.read;
      data[g].written += b.written;
      tu.members[g].insert(object);
      tu.data[g].object = tu.data[g].object ? tu.data[g].object : object;
    }
  }
  for (const auto& [name, b] : locals) {
    Bytes& most = tu.locals[name];
    most.read = std::max(most.read, b.read);
    most.written = std::max(most.written, b.written);
  }
  tu.stack_read = std::max(tu.stack_read, stack.read);
  tu.stack_written = std::max(tu.stack_written, stack.written);
  if (stack.written > 0 && tu.stack_writers++ == 0) tu.first_stack_writer = t.id;
  for (const auto& [g, b] : data) {
    ObjectUse& ou = tu.data[g];
    ++ou.instances;
    ou.read += b.read;
    ou.written += b.written;
    ou.max_read = std::max(ou.max_read, b.read);
    ou.max_written = std::max(ou.max_written, b.written);
  }
}

// The locals of the creating code that an instance of each type wrote and a later instance
// (or the creating code) read: (type, name).
std::set<std::pair<int, std::string>> locals_read_later(const trace::TaskSet& set) {
  std::set<std::pair<int, std::string>> found;
  for (const trace::TaskInstance& t : set.instances)
    for (const trace::TaskDependency& d : set.after(t)) {
      if (!(d.kinds & trace::kRaw) || !valid_instance(set, d.from)) continue;
      for (int o : set.objects_of(d))
        if (creator_local(set, o)) found.insert({set.instance(d.from).type, object_name(set, o)});
    }
  return found;
}

// The hints of one type from what its instances did.
TypeHints type_hints(const trace::TaskSet& set, int type, TypeUses& tu,
                     const std::set<std::pair<int, std::string>>& read_later) {
  TypeHints th;
  th.type = type;
  th.instances = tu.instances;
  th.stack_read = tu.stack_read;
  th.stack_written = tu.stack_written;
  for (auto& [g, ou] : tu.data) {
    ou.clause = ou.read > 0 && ou.written > 0 ? Clause::InOut
                : ou.written > 0              ? Clause::Out
                                              : Clause::In;
    ou.objects = tu.members[g].size();
    for (int id : tu.members[g])
      if (const trace::TaskObject* o = set.object(id)) ou.size += o->size;
    if (g.first == "stack") th.callers_locals.push_back(g.second);
    th.objects.push_back(ou);
  }
  for (const auto& [name, b] : tu.locals) {
    if (alloca_block(name)) {
      th.stack_buffers.push_back(name);
      continue;
    }
    if (b.read > 0) th.firstprivate.push_back(name);
    if (b.written == 0) continue;
    // Declared inside the task, a local it reads would lose the value it reads.
    if (read_later.count({type, name})) th.locals_shared.push_back(name);
    else (b.read > 0 ? th.locals_updated : th.locals_private).push_back(name);
  }
  for (const Group& g : tu.temporaries)  // (unless other instances keep blocks of the site)
    if (!tu.data.count(g)) th.temporaries.push_back(g.second);
  th.disabled.assign(tu.disabled.begin(), tu.disabled.end());
  th.left_out.assign(tu.left_out.begin(), tu.left_out.end());
  return th;
}

// "#pragma omp task in(A) out(B)" (OmpSs) and "#pragma omp task depend(in: A) ..." (OpenMP).
void write_pragmas(const trace::TaskSet& set, TypeHints& th) {
  std::vector<std::string> by_clause[3];
  for (const ObjectUse& ou : th.objects)
    by_clause[static_cast<int>(ou.clause)].push_back(object_name(set, ou.object));
  th.ompss = "#pragma omp task";
  th.openmp = "#pragma omp task";
  for (int c = 0; c < 3; ++c) {
    if (by_clause[c].empty()) continue;
    std::string name = clause_name(static_cast<Clause>(c));
    th.ompss += " " + name + "(" + join(by_clause[c], ", ") + ")";
    th.openmp += " depend(" + name + ": " + join(by_clause[c], ", ") + ")";
  }
}

// Globals written by tasks of several types.
void shared_global_warnings(const trace::TaskSet& set, int main, Hints& hints) {
  for (const trace::TaskObject& o : set.objects) {
    if (o.kind != "global") continue;
    std::set<int> types;
    std::map<int, int> first_writer;  // type -> its first instance that writes o
    for (const trace::TaskInstance& t : set.instances) {
      if (t.type == main) continue;
      for (const trace::TaskUse& u : set.uses(t))
        if (u.object == o.id && u.written > 0 && !u.disabled) {
          types.insert(t.type);
          first_writer.emplace(t.type, t.id);
        }
    }
    if (types.size() < 2) continue;
    Warning w;
    w.code = "shared-global";
    w.object = o.id;
    w.types = type_names(set, types);
    for (int t : types)
      if (w.instances.size() < 2) w.instances.push_back(first_writer[t]);
    std::sort(w.instances.begin(), w.instances.end());
    w.count = types.size();
    w.message = "global " + o.name + " is written by tasks of " + std::to_string(types.size()) +
                " types (" + join(w.types, ", ") +
                "): each of them must name it in its out()/inout() clauses, as the hints "
                "do, so that the runtime orders them (a global a task uses by its name, not "
                "through a parameter, is easily left out), or protect it (atomic, critical) if "
                "they only accumulate into it";
    hints.warnings.push_back(std::move(w));
  }
}

// Races hidden by the decomposition.
void race_warnings(const trace::TaskSet& set, const HintOptions& options, Hints& hints) {
  for (const auto& [object, f] : find_races(set, options, hints.notes)) {
    Warning w;
    w.code = "race";
    w.object = object;
    std::set<int> types;
    for (std::size_t t = 0; t < f.types.size(); ++t)
      if (f.types[t]) types.insert(static_cast<int>(t));
    std::size_t involved =
        static_cast<std::size_t>(std::count(f.instances.begin(), f.instances.end(), true));
    w.types = type_names(set, types);
    w.instances = {f.first, f.second};
    w.count = f.pairs;
    const trace::TaskInstance& a = set.instance(f.first);
    const trace::TaskInstance& b = set.instance(f.second);
    std::string name = object_name(set, object);
    w.message =
        object_description(set, object) + " is written by #" + std::to_string(a.id) + " (" +
        type_name(set, a.type) + ") and #" + std::to_string(b.id) + " (" + type_name(set, b.type) +
        ") and no dependency orders them: together they write more bytes than the part of it they "
        "use has, " +
        (f.proven ? std::string("so both write some of the same bytes")
                  : std::string("so they may write some of the same bytes (not proven: "
                                "they update it while it is disabled, and the trace counts "
                                "such bytes once per access)")) +
        ", and the decomposition lets them run in "
        "either order (" +
        std::to_string(f.pairs) + (f.pairs == 1 ? " such pair" : " such pairs") + " among " +
        std::to_string(involved) + " instances). If they accumulate into " + name +
        " (a disabled object), protect it (atomic, critical, a reduction); otherwise "
        "name it in out()/inout() so that the runtime orders them (tracing with "
        "--deps=raw+waw records such write-after-write dependencies)";
    hints.warnings.push_back(std::move(w));
  }
}

// Tasks that write locals of the code that creates them, which something reads afterwards.
void stack_write_warnings(const trace::TaskSet& set, const std::vector<TypeUses>& uses,
                          Hints& hints) {
  for (const TypeHints& th : hints.types) {
    const TypeUses& tu = uses[static_cast<std::size_t>(th.type)];
    if (th.locals_shared.empty()) continue;
    Warning w;
    w.code = "stack-write";
    for (const trace::TaskObject& o : set.objects)
      if (creator_local(&o) && o.name == th.locals_shared.front()) {
        w.object = o.id;
        break;
      }
    w.types = {type_name(set, th.type)};
    w.instances = {tu.first_stack_writer};
    w.count = tu.stack_writers;
    w.message = type_name(set, th.type) + " writes " + join(th.locals_shared, ", ") +
                " (locals of the code that creates it), which is read afterwards, in " +
                std::to_string(tu.stack_writers) + " of its " + std::to_string(th.instances) +
                (th.instances == 1 ? " instance" : " instances") + ", e.g. #" +
                std::to_string(tu.first_stack_writer) +
                ": a task gets such variables by value (firstprivate), so these writes would be "
                "lost; make the variable shared and name it in out()/inout() (and wait for the "
                "task before using it), or write the result to an object the clauses name";
    hints.warnings.push_back(std::move(w));
  }
}

// Tasks that read bytes of an object that earlier tasks updated while it was disabled (a
// reduction): the trace orders the reader after the updates, but in() would not in the
// parallel code, next to updates made atomic or critical (which have no out()). (The main task
// is left out: its uses are its whole run's, before and after its children's.)
void reduction_read_warnings(const trace::TaskSet& set, int main, Hints& hints) {
  struct Updates {
    int first = 0;                   // the first instance that updated the object while disabled
    std::int64_t low = 0, high = 0;  // the bytes updated, [low, high) (0, 0: not known)
    std::set<int> types;
    int reader = 0;  // the first later instance that read them, enabled
    std::size_t readers = 0;
  };
  std::map<int, Updates> updated;
  auto overlaps = [](const Updates& w, const trace::TaskUse& u) {
    return w.high == 0 || u.span_end == 0 || (u.span_first < w.high && w.low < u.span_end);
  };
  for (const trace::TaskInstance& t : set.instances) {  // in creation order
    if (t.id == 0 || t.type == main) continue;
    for (const trace::TaskUse& u : set.uses(t)) {
      if (u.disabled && u.written > 0) {
        auto [it, fresh] = updated.try_emplace(u.object);
        Updates& w = it->second;
        if (fresh) {
          w.first = t.id;
          w.low = u.span_first;
          w.high = u.span_end;
        } else if (w.high != 0 && u.span_end != 0) {
          w.low = std::min(w.low, u.span_first);
          w.high = std::max(w.high, u.span_end);
        } else {
          w.high = 0;
        }
        w.types.insert(t.type);
        continue;
      }
      auto it = updated.find(u.object);
      if (u.disabled || u.read == 0 || it == updated.end() || it->second.first == t.id ||
          !overlaps(it->second, u))
        continue;
      if (it->second.readers++ == 0) it->second.reader = t.id;
    }
  }
  for (const auto& [object, w] : updated) {
    if (w.readers == 0) continue;
    const trace::TaskInstance& reader = set.instance(w.reader);
    Warning warning;
    warning.code = "reduction-read";
    warning.object = object;
    std::set<int> types = w.types;
    types.insert(reader.type);
    warning.types = type_names(set, types);
    warning.instances = {w.first, w.reader};
    warning.count = w.readers;
    std::string name = object_name(set, object);
    warning.message =
        "#" + std::to_string(reader.id) + " (" + type_name(set, reader.type) + ") reads " + name +
        ", which " + join(type_names(set, w.types), ", ") +
        " tasks update while it is disabled (a reduction), from #" + std::to_string(w.first) +
        " on: the trace orders it after them, but in(" + name +
        ") would not next to atomic or critical updates (" + std::to_string(w.readers) +
        (w.readers == 1 ? " such reader" : " such readers") +
        "). Wait for the updates first (a taskwait), or declare them a reduction that the "
        "runtime completes before the read";
    hints.warnings.push_back(std::move(warning));
  }
}

// The races, reduction reads and flows through the stack on objects of one group (the blocks
// of one allocation site: a particle each, all disabled; a variable of a recursive function,
// one per frame) between the same types are one warning each, the first object's, saying how
// many more there are: 8,000 lines that differ only in an address nobody sees would bury the
// others. (A stack-write or shared-global warning is one per type or per global already.)
void merge_group_warnings(const trace::TaskSet& set, Hints& hints) {
  using Key = std::tuple<std::string, Group, std::vector<std::string>>;  // code, group, types
  std::map<Key, std::size_t> first;  // -> its warning in `merged`
  std::vector<std::size_t> others;
  std::vector<Warning> merged;
  for (Warning& w : hints.warnings) {
    bool per_object = w.code == "race" || w.code == "reduction-read" || w.code == "stack";
    auto [it, fresh] =
        per_object ? first.try_emplace({w.code, group_of(set, w.object), w.types}, merged.size())
                   : std::make_pair(first.end(), true);
    if (fresh || merged[it->second].object == w.object) {  // (another flow of one object)
      merged.push_back(std::move(w));
      others.push_back(0);
    } else {
      merged[it->second].count += w.count;
      ++others[it->second];
    }
  }
  for (std::size_t k = 0; k < merged.size(); ++k)
    if (others[k] > 0)
      merged[k].message += " (the same on " + std::to_string(others[k]) + " other object" +
                           (others[k] == 1 ? "" : "s") + " named " +
                           object_name(set, merged[k].object) + ")";
  hints.warnings = std::move(merged);
}

// Data passed from one task to another through the stack.
void stack_flow_warnings(const trace::TaskSet& set, Hints& hints) {
  struct StackFlow {
    std::size_t count = 0;
    int from = 0, to = 0;
  };
  std::map<std::tuple<int, int, int>, StackFlow> flows;  // (object, producer type, consumer type)
  auto ancestor = [&](int a, int of) {
    for (int p = set.instance(of).parent; p > 0 && valid_instance(set, p);
         p = set.instance(p).parent)
      if (p == a) return true;
    return false;
  };
  for (const trace::TaskInstance& t : set.instances) {
    for (const trace::TaskDependency& d : set.after(t)) {
      if (!(d.kinds & trace::kRaw) || !valid_instance(set, d.from)) continue;
      // A task reading what a task it created wrote into its own locals (fib's x) needs a
      // taskwait and the local shared ([stack-write] says so), not a value passed.
      if (ancestor(t.id, d.from)) continue;
      std::set<int> stacks;
      for (int o : set.objects_of(d))
        if (creator_local(set, o)) stacks.insert(o);
      for (int o : stacks) {
        StackFlow& f = flows[{o, set.instance(d.from).type, t.type}];
        if (f.count++ == 0) {
          f.from = d.from;
          f.to = t.id;
        }
      }
    }
  }
  for (const auto& [key, f] : flows) {
    auto [object, producer, consumer] = key;
    Warning w;
    w.code = "stack";
    w.object = object;
    std::set<int> types = {producer, consumer};
    w.types = type_names(set, types);
    w.instances = {f.from, f.to};
    w.count = f.count;
    w.message = type_name(set, consumer) + " reads what " + type_name(set, producer) +
                " wrote on the stack (" + object_name(set, object) +
                ", a local variable of the code around the tasks, which no clause names): " +
                std::to_string(f.count) + (f.count == 1 ? " dependency" : " dependencies") +
                ", e.g. #" + std::to_string(f.from) + " -> #" + std::to_string(f.to) +
                ". Pass the value explicitly (firstprivate, a parameter) or keep it in an "
                "object named in the clauses";
    hints.warnings.push_back(std::move(w));
  }
}

}  // namespace

Hints porting_hints(const trace::TaskSet& set, const HintOptions& options) {
  Hints hints;
  int main = main_type(set);
  // Declaration order of objects (clauses list objects that way).
  std::map<int, std::size_t> declared;
  for (std::size_t k = 0; k < set.objects.size(); ++k) declared.emplace(set.objects[k].id, k);
  auto object_order = [&](int id) {
    auto d = declared.find(id);
    return std::make_pair(d == declared.end() ? set.objects.size() : d->second, id);
  };

  std::vector<TypeUses> uses(set.types.size());
  for (const trace::TaskInstance& t : set.instances)
    if (t.type >= 0 && static_cast<std::size_t>(t.type) < set.types.size() && t.type != main)
      add_instance(set, t, uses[static_cast<std::size_t>(t.type)]);
  std::set<std::pair<int, std::string>> read_later = locals_read_later(set);
  for (std::size_t type = 0; type < set.types.size(); ++type) {
    if (static_cast<int>(type) == main || uses[type].instances == 0) continue;
    TypeHints th = type_hints(set, static_cast<int>(type), uses[type], read_later);
    std::stable_sort(th.objects.begin(), th.objects.end(),
                     [&](const ObjectUse& a, const ObjectUse& b) {
                       return object_order(a.object) < object_order(b.object);
                     });
    write_pragmas(set, th);
    hints.types.push_back(std::move(th));
  }

  shared_global_warnings(set, main, hints);
  race_warnings(set, options, hints);
  reduction_read_warnings(set, main, hints);
  stack_write_warnings(set, uses, hints);
  stack_flow_warnings(set, hints);
  std::stable_sort(hints.warnings.begin(), hints.warnings.end(),
                   [&](const Warning& a, const Warning& b) {
                     auto key = [&](const Warning& w) {
                       return std::make_tuple(object_order(w.object), code_rank(w.code),
                                              w.instances.empty() ? 0 : w.instances.front(),
                                              w.instances.size() > 1 ? w.instances[1] : 0);
                     };
                     return key(a) < key(b);
                   });
  merge_group_warnings(set, hints);
  return hints;
}

}  // namespace tareador::tasks
