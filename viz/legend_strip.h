// legend_strip.h — the legend under the plots: the colour of every state (or event value) the
// timelines show, the message lines, and which curve is which timeline.
#pragma once

#include <QWidget>

#include "viz/view_state.h"

namespace tareador::view {

class LegendStrip : public QWidget {
  Q_OBJECT
 public:
  explicit LegendStrip(ViewState* state, QWidget* parent = nullptr);
  int heightForWidth(int width) const override;  // it wraps, and takes the height it needs
  QStringList names() const;                     // what it shows, in order

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;

 private:
  struct Item {
    QString text;
    QColor colour;
    bool line;  // a line sample (messages, curves) rather than a box
  };
  void rebuild();
  std::vector<QRect> place(int width) const;

  ViewState* state_;
  std::vector<Item> items_;
};

}  // namespace tareador::view
