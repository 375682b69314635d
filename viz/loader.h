// loader.h — loads the inputs in a background thread, so the window stays alive with a
// progress bar; one load at a time (a new one cancels the previous).
#pragma once

#include <QObject>
#include <atomic>
#include <memory>
#include <thread>

#include "viz/inputs.h"

namespace tareador::view {

class Loader : public QObject {
  Q_OBJECT
 public:
  explicit Loader(QObject* parent = nullptr);
  ~Loader() override;
  void start(std::vector<std::string> paths);
  void cancel();

 signals:
  void progress(int percent);
  void loaded(std::shared_ptr<tareador::view::Loaded> result);
  void failed(QString message);

 private:
  std::thread worker_;
  std::atomic<bool> cancelled_{false};
};

}  // namespace tareador::view
