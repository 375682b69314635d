#include "viz/view_state.h"

#include <algorithm>
#include <cmath>

namespace tareador::view {

namespace {
constexpr double kNarrowest = 10;  // ns: zooming stops at a few nanoseconds per screen
}

void ViewState::setTimelines(std::vector<TimelinePtr> timelines) {
  timelines_ = std::move(timelines);
  trace_end_ = 1;
  for (const TimelinePtr& t : timelines_)
    trace_end_ = std::max(trace_end_, static_cast<double>(t->end_time));
  highlight_ = Highlight();
  selection_begin_ = selection_end_ = 0;
  begin_ = 0;
  end_ = trace_end_;
  emit timelinesChanged();
  emit rangeChanged();
  emit selectionChanged();
}

void ViewState::setRange(double begin, double end) {
  // Keep the range within the trace (with a little room past its end), no narrower than
  // kNarrowest.
  double limit = trace_end_ * 1.05;
  double width = std::clamp(end - begin, kNarrowest, limit);
  begin = std::clamp(begin, -0.05 * trace_end_, limit - width);
  if (begin == begin_ && begin + width == end_) return;
  begin_ = begin;
  end_ = begin + width;
  emit rangeChanged();
}

void ViewState::zoom(double factor, double around) {
  setRange(around - (around - begin_) * factor, around + (end_ - around) * factor);
}

void ViewState::pan(double fraction) {
  double shift = (end_ - begin_) * fraction;
  setRange(begin_ + shift, end_ + shift);
}

void ViewState::fit() { setRange(0, trace_end_); }

void ViewState::setSelection(double begin, double end) {
  if (end < begin) std::swap(begin, end);
  selection_begin_ = std::max(0.0, begin);
  selection_end_ = std::min(trace_end_, end);
  emit selectionChanged();
}

void ViewState::clearSelection() {
  if (!hasSelection()) return;
  selection_begin_ = selection_end_ = 0;
  emit selectionChanged();
}

void ViewState::setHighlight(const Highlight& highlight) {
  highlight_ = highlight;
  emit highlightChanged();
}

void ViewState::setRowLevel(RowLevel level) {
  if (level == row_level_) return;
  row_level_ = level;
  highlight_ = Highlight();
  emit appearanceChanged();
}

void ViewState::setColourBy(std::uint32_t event_type) {
  if (event_type == colour_by_) return;
  colour_by_ = event_type;
  emit appearanceChanged();
}

Semantic ViewState::semantic(const Timeline& timeline) const {
  if (colour_by_ != 0)
    for (const auto& [type, name] : timeline.colouring_event_types())
      if (type == colour_by_) return Semantic{type};
  return Semantic{};
}

void ViewState::setShowMessages(bool show) {
  if (show == show_messages_) return;
  show_messages_ = show;
  emit appearanceChanged();
}

}  // namespace tareador::view
