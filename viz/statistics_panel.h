// statistics_panel.h — time per row and per state (or task type) within the selection, or the
// whole run when nothing is selected; per rank the compute / communication / waiting breakdown.
#pragma once

#include <QWidget>

#include "viz/view_state.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace tareador::view {

class StatisticsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit StatisticsPanel(ViewState* state, QWidget* parent = nullptr);
  QTableWidget* perRow() const { return per_row_; }
  QTableWidget* perValue() const { return per_value_; }

 private:
  void listTimelines();
  void refill();

  ViewState* state_;
  QComboBox* timeline_;
  QLabel* range_;
  QTableWidget* per_row_;
  QTableWidget* per_value_;
};

}  // namespace tareador::view
