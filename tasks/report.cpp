// The task report, as text and as JSON (taskgraph.h).
#include <sstream>

#include "tasks/support.h"
#include "tasks/taskgraph.h"

namespace tareador::tasks {

std::string report_text(const trace::TaskSet& set, const Report& r) {
  std::ostringstream out;
  out << "Tasks of " << (r.name.empty() ? std::string("the run") : r.name) << ", rank " << r.rank
      << " (" << r.trace << ")\n";
  out << "  " << r.profile.instances << " task instances of " << r.profile.types.size()
      << " types (the main task included), " << grouped(r.profile.instructions)
      << " instructions\n";
  out << "  graph: " << r.nodes << " tasks, " << r.edges << " dependencies"
      << (r.with_main ? " (the main task included)" : " (the main task left out)");
  if (!r.files.empty()) out << ": " << join(r.files, ", ");
  out << "\n";
  for (const std::string& n : r.notes) out << "  note: " << n << "\n";

  out << "\nProfile per task type\n";
  std::size_t width = 4;
  for (const TypeProfile& t : r.profile.types) width = std::max(width, t.type.size());
  char line[512];
  std::snprintf(line, sizeof line, "  %-*s %10s %16s %16s %16s %8s\n", static_cast<int>(width),
                "type", "instances", "total", "mean", "max", "share");
  out << line;
  for (const TypeProfile& t : r.profile.types) {
    std::snprintf(line, sizeof line, "  %-*s %10zu %16s %16s %16s %8s\n", static_cast<int>(width),
                  t.type.c_str(), t.instances, grouped(t.total).c_str(), grouped(t.mean).c_str(),
                  grouped(t.max).c_str(), percent(t.share).c_str());
    out << line;
  }
  out << "  (instructions; share: of all instructions of the rank)\n";

  out << "\nPorting hints (clauses per task type; objects are named as the trace names them)\n";
  if (r.hints.types.empty()) out << "  no annotated task\n";
  for (const TypeHints& th : r.hints.types) {
    out << "\n  " << type_name(set, th.type) << " (" << th.instances
        << (th.instances == 1 ? " instance" : " instances") << ")\n";
    out << "    OmpSs:  " << th.ompss << "\n";
    out << "    OpenMP: " << th.openmp << "\n";
    if (!th.firstprivate.empty())
      out << "    firstprivate: " << join(th.firstprivate, ", ")
          << " (locals of the code that creates it, read: passed by value; "
          << format_bytes(th.stack_read) << " at most)\n";
    if (!th.stack_buffers.empty())
      out << "    stack buffers: " << join(th.stack_buffers, ", ")
          << " (alloca blocks of the code that creates it, used through a pointer: shared, not "
             "copied; that code's function must wait for the task (taskwait) before it returns)\n";
    if (!th.callers_locals.empty())
      out << "    through a pointer: " << join(th.callers_locals, ", ")
          << " (locals of a function that calls the one that creates it: shared, in the clauses; "
             "name the pointer it uses, with the part of them each instance uses)\n";
    if (!th.locals_private.empty())
      out << "    private: " << join(th.locals_private, ", ")
          << " (locals of the code that creates it, written and not read again while traced: "
             "declare them inside the task, unless code after tracing ends reads them)\n";
    if (!th.locals_updated.empty())
      out << "    updates its copy of: " << join(th.locals_updated, ", ")
          << " (firstprivate locals it also writes, not read again while traced: the writes stay "
             "in the task; shared, and waited for, if code after tracing ends reads them)\n";
    if (!th.locals_shared.empty())
      out << "    also writes " << join(th.locals_shared, ", ")
          << " (locals of the code that creates it, read afterwards): see the warnings\n";
    if (!th.temporaries.empty())
      out << "    temporaries: " << join(th.temporaries, ", ")
          << " (heap blocks each instance allocates and frees, itself or in the tasks it "
             "creates: private, in no clause)\n";
    if (!th.disabled.empty())
      out << "    updates " << join(th.disabled, ", ")
          << " while disabled (no dependency): a reduction, or an atomic or critical update\n";
    if (!th.left_out.empty()) {
      std::vector<std::string> shown(
          th.left_out.begin(), th.left_out.begin() + std::min<std::size_t>(3, th.left_out.size()));
      if (th.left_out.size() > shown.size())
        shown.push_back("and " + std::to_string(th.left_out.size() - shown.size()) + " more");
      out << "    not in the clauses: " << th.left_out.size()
          << (th.left_out.size() == 1 ? " object that is" : " objects that are")
          << " constants or a library's own memory (" << join(shown, ", ") << ")\n";
    }
    if (th.objects.empty()) continue;
    auto shown_name = [&](const ObjectUse& ou) {
      std::string name = object_name(set, ou.object);
      return ou.objects > 1 ? name + " (" + std::to_string(ou.objects) + " objects)" : name;
    };
    std::size_t name_width = 6;
    for (const ObjectUse& ou : th.objects) name_width = std::max(name_width, shown_name(ou).size());
    std::snprintf(line, sizeof line, "    %-6s %-*s %-7s %10s %10s %12s %12s\n", "clause",
                  static_cast<int>(name_width), "object", "kind", "size", "instances", "max read",
                  "max written");
    out << line;
    for (const ObjectUse& ou : th.objects) {
      const trace::TaskObject* o = set.object(ou.object);
      std::snprintf(line, sizeof line, "    %-6s %-*s %-7s %10s %10zu %12s %12s\n",
                    clause_name(ou.clause), static_cast<int>(name_width), shown_name(ou).c_str(),
                    o ? o->kind.c_str() : "?", format_bytes(ou.size).c_str(), ou.instances,
                    ou.max_read ? format_bytes(ou.max_read).c_str() : "-",
                    ou.max_written ? format_bytes(ou.max_written).c_str() : "-");
      out << line;
    }
  }

  out << "\nWarnings\n";
  if (r.hints.warnings.empty()) out << "  none\n";
  for (const Warning& w : r.hints.warnings) out << "  [" << w.code << "] " << w.message << "\n";
  for (const std::string& n : r.hints.notes) out << "  note: " << n << "\n";
  return out.str();
}

nlohmann::ordered_json report_json(const trace::TaskSet& set, const Report& r) {
  using json = nlohmann::ordered_json;
  json doc;
  doc["format"] = "tareador-taskreport";
  doc["version"] = 1;
  doc["name"] = r.name;
  doc["rank"] = r.rank;
  doc["trace"] = r.trace;
  doc["instances"] = r.profile.instances;
  doc["instructions"] = r.profile.instructions;
  doc["graph"] = {
      {"files", r.files}, {"nodes", r.nodes}, {"edges", r.edges}, {"with_main", r.with_main}};
  json types = json::array();
  for (const TypeProfile& t : r.profile.types)
    types.push_back({{"name", t.type},
                     {"color", t.color},
                     {"instances", t.instances},
                     {"mpi_instances", t.mpi_instances},
                     {"instructions", {{"total", t.total}, {"mean", t.mean}, {"max", t.max}}},
                     {"share", t.share}});
  doc["types"] = types;
  json hints = json::array();
  for (const TypeHints& th : r.hints.types) {
    json clauses = {{"in", json::array()}, {"out", json::array()}, {"inout", json::array()}};
    json objects = json::array();
    for (const ObjectUse& ou : th.objects) {
      const trace::TaskObject* o = set.object(ou.object);
      clauses[clause_name(ou.clause)].push_back(object_name(set, ou.object));
      objects.push_back({{"id", ou.object},
                         {"name", object_name(set, ou.object)},
                         {"kind", o ? o->kind : std::string("?")},
                         {"objects", ou.objects},
                         {"size", ou.size},
                         {"clause", clause_name(ou.clause)},
                         {"instances", ou.instances},
                         {"read", ou.read},
                         {"written", ou.written},
                         {"max_read", ou.max_read},
                         {"max_written", ou.max_written}});
    }
    json h = {{"type", type_name(set, th.type)},
              {"instances", th.instances},
              {"ompss", th.ompss},
              {"openmp", th.openmp},
              {"stack_read", th.stack_read},
              {"stack_written", th.stack_written},
              {"firstprivate", th.firstprivate},
              {"stack_buffers", th.stack_buffers},
              {"callers_locals", th.callers_locals},
              {"private", th.locals_private},
              {"locals_updated", th.locals_updated},
              {"locals_written", th.locals_shared},
              {"temporaries", th.temporaries},
              {"disabled", th.disabled},
              {"left_out", th.left_out}};
    h["in"] = clauses["in"];
    h["out"] = clauses["out"];
    h["inout"] = clauses["inout"];
    h["objects"] = objects;
    hints.push_back(h);
  }
  doc["hints"] = hints;
  json warnings = json::array();
  for (const Warning& w : r.hints.warnings)
    warnings.push_back({{"code", w.code},
                        {"object", w.object},
                        {"object_name", object_name(set, w.object)},
                        {"types", w.types},
                        {"instances", w.instances},
                        {"count", w.count},
                        {"message", w.message}});
  doc["warnings"] = warnings;
  std::vector<std::string> notes = r.notes;
  notes.insert(notes.end(), r.hints.notes.begin(), r.hints.notes.end());
  doc["notes"] = notes;
  return doc;
}

}  // namespace tareador::tasks
