// task_set.cpp — the task model's flat lists: every list of every instance of a rank lives in
// one array per kind (dependencies, their objects, children, uses, steps), so that a set of
// millions of instances makes a few large allocations instead of several per instance.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "tareador/trace.h"

namespace tareador::trace {

namespace {

// `list` of `array` made the last elements of the array (moved there when it is not), so that
// the next element appended to the array extends it.
template <class T>
void move_to_end(std::vector<T>& array, TaskList& list) {
  if (static_cast<std::size_t>(list.first) + list.count == array.size()) return;
  if (array.size() + list.count > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("a task set's lists hold at most 2^32 elements of each kind");
  std::size_t first = array.size();
  // No reallocation while copying within the array; and room grown geometrically, as
  // push_back would, so that lists moved one after the other cost linear time in all.
  std::size_t needed = first + list.count + 1;
  if (array.capacity() < needed) array.reserve(std::max(needed, 2 * array.capacity()));
  for (std::uint32_t k = 0; k < list.count; ++k) array.push_back(array[list.first + k]);
  list.first = static_cast<std::uint32_t>(first);
}

template <class T>
void append(std::vector<T>& array, TaskList& list, const T& value) {
  move_to_end(array, list);
  if (array.size() >= std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("a task set's lists hold at most 2^32 elements of each kind");
  array.push_back(value);
  ++list.count;
}

}  // namespace

const TaskObject* TaskSet::object(int id) const {
  // Objects are usually declared in increasing id order: search that way first.
  auto it = std::lower_bound(objects.begin(), objects.end(), id,
                             [](const TaskObject& o, int v) { return o.id < v; });
  if (it != objects.end() && it->id == id) return &*it;
  for (const TaskObject& o : objects)
    if (o.id == id) return &o;
  return nullptr;
}

TaskInstance& TaskSet::add_instance(TaskInstance in) {
  if (in.id <= 0) in.id = static_cast<int>(instances.size()) + 1;
  if (instances.size() < static_cast<std::size_t>(in.id))
    instances.resize(static_cast<std::size_t>(in.id), TaskInstance{});
  in.after = {static_cast<std::uint32_t>(after_.size()), 0};
  in.children = {static_cast<std::uint32_t>(children_.size()), 0};
  in.uses = {static_cast<std::uint32_t>(uses_.size()), 0};
  in.steps = {static_cast<std::uint32_t>(steps_.size()), 0};
  return instances[static_cast<std::size_t>(in.id - 1)] = in;
}

void TaskSet::add_after(int id, TaskDependency d, const std::vector<int>& objects,
                        double instructions, bool with_step) {
  TaskInstance& in = instance(id);
  d.objects = {static_cast<std::uint32_t>(dependency_objects_.size()), 0};
  for (int o : objects) append(dependency_objects_, d.objects, o);
  if (with_step) add_step(id, TaskStep{false, static_cast<int>(in.after.count), instructions});
  append(after_, in.after, d);
}

void TaskSet::add_spawn(int id, int child, SourceSite site, double instructions, bool with_step) {
  TaskInstance& in = instance(id);
  if (with_step) add_step(id, TaskStep{true, static_cast<int>(in.children.count), instructions});
  TaskList sites = in.children;
  append(spawn_sites_, sites, site);
  append(children_, in.children, child);
}

void TaskSet::add_use(int id, const TaskUse& use) { append(uses_, instance(id).uses, use); }

void TaskSet::add_step(int id, const TaskStep& step) { append(steps_, instance(id).steps, step); }

void TaskSet::shrink_to_fit() {
  instances.shrink_to_fit();
  after_.shrink_to_fit();
  dependency_objects_.shrink_to_fit();
  children_.shrink_to_fit();
  spawn_sites_.shrink_to_fit();
  uses_.shrink_to_fit();
  steps_.shrink_to_fit();
}

}  // namespace tareador::trace
