// The viewer's Paraver reader (viz/paraver_reader.cpp): a .prv with its .pcf and .row (the
// input's parts, fuzz.h; a part left out is a file that is not there), then what the viewer
// asks of the timeline it builds.
#include "fuzz.h"
#include "viz/timeline.h"

namespace tareador::fuzz {

int fuzz_paraver(const std::uint8_t* data, std::size_t size) {
  Scratch& scratch = Scratch::get();
  scratch.clear();
  std::vector<std::string_view> parts = split_parts(data, size);
  std::string prv = scratch.write("trace.prv", parts[0]);
  if (parts.size() > 1) scratch.write("trace.pcf", parts[1]);
  if (parts.size() > 2) scratch.write("trace.row", parts[2]);
  try {
    std::unique_ptr<view::Timeline> timeline = view::load_paraver(prv);
    view::Time end = std::max<view::Time>(timeline->end_time, 1);
    double columns[64];
    for (const view::Profile* p :
         {&timeline->cores_busy, &timeline->bandwidth, &timeline->in_flight})
      p->averages(0, static_cast<double>(end), 64, columns);
    (void)timeline->messages_overlapping(0, end);
    std::vector<view::Semantic> semantics{view::Semantic{}};
    for (const auto& [type, name] : timeline->colouring_event_types())
      semantics.push_back(view::Semantic{type});
    for (view::RowLevel level :
         {view::RowLevel::Thread, view::RowLevel::Task, view::RowLevel::Cpu}) {
      (void)timeline->events(level);
      for (const view::Semantic& semantic : semantics) {
        (void)timeline->rows(level, semantic);
        (void)timeline->statistics(level, semantic, 0, end);
      }
    }
  } catch (const view::LoadError& e) {
    rejected(e);
  }
  return 0;
}

}  // namespace tareador::fuzz
