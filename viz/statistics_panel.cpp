#include "viz/statistics_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tareador::view {

namespace {

QTableWidgetItem* percent_item(double fraction, double ns) {
  auto* item = new QTableWidgetItem(QString::number(100 * fraction, 'f', 1) + " %");
  item->setData(Qt::UserRole, fraction);
  item->setToolTip(QString::fromStdString(format_duration(ns)));
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QTableWidgetItem* text_item(const QString& text) { return new QTableWidgetItem(text); }

}  // namespace

StatisticsPanel::StatisticsPanel(ViewState* state, QWidget* parent)
    : QWidget(parent), state_(state) {
  timeline_ = new QComboBox;
  timeline_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  range_ = new QLabel;
  per_row_ = new QTableWidget;
  per_value_ = new QTableWidget;
  for (QTableWidget* table : {per_row_, per_value_}) {
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(20);
    table->setSortingEnabled(false);
  }
  auto* tabs = new QTabWidget;
  tabs->addTab(per_row_, tr("Per row"));
  tabs->addTab(per_value_, tr("Per state / task type"));
  auto* top = new QHBoxLayout;
  top->addWidget(timeline_);
  top->addWidget(range_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(top);
  layout->addWidget(tabs);
  connect(state_, &ViewState::timelinesChanged, this, &StatisticsPanel::listTimelines);
  connect(state_, &ViewState::selectionChanged, this, &StatisticsPanel::refill);
  connect(state_, &ViewState::appearanceChanged, this, &StatisticsPanel::refill);
  connect(timeline_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          &StatisticsPanel::refill);
  listTimelines();
}

void StatisticsPanel::listTimelines() {
  timeline_->blockSignals(true);
  timeline_->clear();
  for (const TimelinePtr& t : state_->timelines())
    timeline_->addItem(QString::fromStdString(t->name));
  timeline_->blockSignals(false);
  refill();
}

void StatisticsPanel::refill() {
  per_row_->clear();
  per_value_->clear();
  per_row_->setRowCount(0);
  per_value_->setRowCount(0);
  int index = timeline_->currentIndex();
  if (index < 0 || index >= static_cast<int>(state_->timelines().size())) return;
  const Timeline& t = *state_->timelines()[static_cast<std::size_t>(index)];
  Time begin = 0, end = t.end_time;
  if (state_->hasSelection()) {
    begin = static_cast<Time>(state_->selectionBegin());
    end = std::min(end, static_cast<Time>(state_->selectionEnd()));
  }
  double span = static_cast<double>(std::max<Time>(1, end - begin));
  range_->setText(tr("%1: %2 to %3 (%4)")
                      .arg(state_->hasSelection() ? tr("selection") : tr("whole run"))
                      .arg(QString::fromStdString(format_instant(static_cast<double>(begin))))
                      .arg(QString::fromStdString(format_instant(static_cast<double>(end))))
                      .arg(QString::fromStdString(format_duration(span))));
  RowLevel level = state_->rowLevel();
  Semantic semantic = state_->semantic(t);
  const RowSet& rows = t.rows(level, semantic);
  RangeStatistics stats = t.statistics(level, semantic, begin, end);
  std::vector<std::size_t> present;
  for (std::size_t k = 0; k < stats.per_key.size(); ++k)
    if (stats.per_key[k] > 0) present.push_back(k);

  // Per row: the breakdown (for states), then each value's share of the range.
  bool states = semantic.event_type == 0;
  QStringList headers{tr("row")};
  if (states) headers << tr("compute") << tr("communication") << tr("waiting") << tr("other");
  for (std::size_t k : present) headers << QString::fromStdString(rows.legend[k].name);
  per_row_->setColumnCount(headers.size());
  per_row_->setHorizontalHeaderLabels(headers);
  const std::vector<std::string>& labels = t.labels(level);
  per_row_->setRowCount(static_cast<int>(stats.per_row.size()));
  for (std::size_t r = 0; r < stats.per_row.size(); ++r) {
    int column = 0, row = static_cast<int>(r);
    per_row_->setItem(row, column++, text_item(QString::fromStdString(labels[r])));
    const std::vector<Time>& times = stats.per_row[r];
    double row_time = static_cast<double>(std::max<Time>(1, stats.row_time[r]));
    if (states) {
      double classes[4] = {0, 0, 0, 0};
      for (std::size_t k = 0; k < times.size(); ++k)
        classes[static_cast<int>(classify_state(static_cast<int>(rows.legend[k].value)))] +=
            static_cast<double>(times[k]);
      for (double ns : classes) per_row_->setItem(row, column++, percent_item(ns / row_time, ns));
    }
    for (std::size_t k : present) {
      double ns = k < times.size() ? static_cast<double>(times[k]) : 0;
      per_row_->setItem(row, column++, percent_item(ns / row_time, ns));
    }
  }
  per_row_->resizeColumnsToContents();

  // Per value: total time, share of all rows' time, mean per row.
  per_value_->setColumnCount(4);
  per_value_->setHorizontalHeaderLabels(
      {states ? tr("state") : tr("value"), tr("time"), tr("share"), tr("mean per row")});
  per_value_->setRowCount(static_cast<int>(present.size()));
  double all_rows = static_cast<double>(std::max<Time>(1, stats.all_rows_time));
  for (std::size_t i = 0; i < present.size(); ++i) {
    std::size_t k = present[i];
    double ns = static_cast<double>(stats.per_key[k]);
    auto* name = text_item(QString::fromStdString(rows.legend[k].name));
    name->setData(Qt::DecorationRole, QColor::fromRgb(0xff000000u | rows.legend[k].rgb));
    int row = static_cast<int>(i);
    per_value_->setItem(row, 0, name);
    per_value_->setItem(row, 1, text_item(QString::fromStdString(format_duration(ns))));
    per_value_->setItem(row, 2, percent_item(ns / all_rows, ns));
    per_value_->setItem(
        row, 3,
        text_item(QString::fromStdString(format_duration(
            ns / static_cast<double>(std::max<std::size_t>(1, stats.per_row.size()))))));
  }
  per_value_->resizeColumnsToContents();
}

}  // namespace tareador::view
