// view_state.h — what every part of the view shares: the timelines, the visible time range
// (one axis for all the stacked timelines and the plots under them), the selection, the
// highlighted record and how rows are built and coloured.
#pragma once

#include <QObject>
#include <memory>
#include <vector>

#include "viz/timeline.h"

namespace tareador::view {

using TimelinePtr = std::shared_ptr<const Timeline>;

// A record to point at: the task-graph node clicked, or the record last clicked.
struct Highlight {
  int timeline = -1;  // -1: none
  RowLevel level = RowLevel::Thread;
  std::uint32_t row = 0;
  Time begin = 0, end = 0;
};

// A record under the cursor: a state (or event-value interval), an event, or a message.
struct Hit {
  enum Kind { Nothing, Interval, Event, Message } kind = Nothing;
  int timeline = -1;
  RowLevel level = RowLevel::Thread;
  std::uint32_t row = 0;
  std::size_t index = 0;  // into the row's intervals or events, or the timeline's messages
  double time = 0;        // where the cursor was
};

class ViewState : public QObject {
  Q_OBJECT
 public:
  explicit ViewState(QObject* parent = nullptr) : QObject(parent) {}

  void setTimelines(std::vector<TimelinePtr> timelines);
  const std::vector<TimelinePtr>& timelines() const { return timelines_; }
  double traceEnd() const { return trace_end_; }  // the latest end of them all

  // The visible range, in nanoseconds (fractional: zooming is continuous).
  double begin() const { return begin_; }
  double end() const { return end_; }
  void setRange(double begin, double end);
  void zoom(double factor, double around);  // factor < 1 zooms in, keeping `around` in place
  void pan(double fraction);                // by a fraction of the visible width
  void fit();

  bool hasSelection() const { return selection_end_ > selection_begin_; }
  double selectionBegin() const { return selection_begin_; }
  double selectionEnd() const { return selection_end_; }
  void setSelection(double begin, double end);
  void clearSelection();

  const Highlight& highlight() const { return highlight_; }
  void setHighlight(const Highlight& highlight);

  RowLevel rowLevel() const { return row_level_; }
  void setRowLevel(RowLevel level);
  // Colour by states (0) or by an event type's values; a timeline without that event type
  // shows its states.
  std::uint32_t colourBy() const { return colour_by_; }
  void setColourBy(std::uint32_t event_type);
  Semantic semantic(const Timeline& timeline) const;
  bool showMessages() const { return show_messages_; }
  void setShowMessages(bool show);

 signals:
  void timelinesChanged();
  void rangeChanged();
  void selectionChanged();
  void highlightChanged();
  void appearanceChanged();  // rows, colours, messages

 private:
  std::vector<TimelinePtr> timelines_;
  double trace_end_ = 1;
  double begin_ = 0, end_ = 1;
  double selection_begin_ = 0, selection_end_ = 0;
  Highlight highlight_;
  RowLevel row_level_ = RowLevel::Thread;
  std::uint32_t colour_by_ = 0;
  bool show_messages_ = true;
};

}  // namespace tareador::view
