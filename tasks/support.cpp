// What the task library's parts share (support.h).
#include "tasks/support.h"

#include <cmath>
#include <cstdio>
#include <fstream>

namespace tareador::tasks {

namespace {

std::string trim_zero(std::string s) {
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

}  // namespace

int main_type(const trace::TaskSet& set) {
  return set.instances.empty() ? -1 : set.instances.front().type;
}

bool valid_instance(const trace::TaskSet& set, int id) {
  return id >= 1 && static_cast<std::size_t>(id) <= set.instances.size();
}

std::string fixed1(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return trim_zero(buffer);
}

std::string grouped(double value) {
  long long v = std::llround(value);
  bool negative = v < 0;
  std::string digits = std::to_string(negative ? -v : v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

std::string percent(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f%%", v);
  return buffer;
}

bool creator_local(const trace::TaskObject* o) { return o && o->kind == "stack" && !o->caller; }

bool creator_local(const trace::TaskSet& set, int id) { return creator_local(set.object(id)); }

bool program_data(const trace::TaskObject* o) {
  return o == nullptr || (o->kind != "const" && o->kind != "library");
}

std::string object_description(const trace::TaskSet& set, int id) {
  const trace::TaskObject* o = set.object(id);
  if (!o) return object_name(set, id);
  return o->name + " (" + o->kind + ", " + format_bytes(o->size) + ")";
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  out.close();
  if (!out) throw trace::FormatError(path, 0, "cannot write it");
}

}  // namespace tareador::tasks
