// support.h — what the task library's parts share: instance checks and number formats of the
// reports, the objects' descriptions, writing a file (internal to tasks/).
#pragma once

#include <string>

#include "tasks/taskgraph.h"

namespace tareador::tasks {

// Type index of the main task (instance 1), or -1 when the set has no instance.
int main_type(const trace::TaskSet& set);
bool valid_instance(const trace::TaskSet& set, int id);
std::string fixed1(double v);       // one decimal, without a trailing ".0"
std::string grouped(double value);  // 1234567 -> "1,234,567"
std::string percent(double v);      // "12.50%"
// Whether an object is a local of the code that creates the tasks using it (a stack object not
// reached as a caller's, TaskObject::caller): passed by value, never in the clauses.
bool creator_local(const trace::TaskObject* o);
bool creator_local(const trace::TaskSet& set, int id);
// Whether an object is the program's data, which clauses name and races are about: not
// constants (read-only memory: literals, code) nor a library's own memory (the C library's
// internals: its calls are taken to be thread-safe).
bool program_data(const trace::TaskObject* o);
// "NAME (KIND, SIZE)", or the object's name when the set does not declare it.
std::string object_description(const trace::TaskSet& set, int id);
// Writes `content` as the file `path`; throws trace::FormatError naming it.
void write_file(const std::string& path, const std::string& content);

}  // namespace tareador::tasks
