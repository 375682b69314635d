// loader.h — loads the inputs in a background thread, so the window stays alive with a
// progress bar; one load at a time (a new one cancels the previous). The task graphs are laid
// out apart, after the timelines are shown (GraphLayouter).
#pragma once

#include <QObject>
#include <atomic>
#include <memory>
#include <mutex>
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

// Lays task graphs out with Graphviz in a background thread, one after the other. A layout
// cannot be interrupted (thousands of nodes take minutes), so a new start() or the end of this
// object does not wait for it: its result is dropped when it comes.
class GraphLayouter : public QObject {
  Q_OBJECT
 public:
  explicit GraphLayouter(QObject* parent = nullptr);
  ~GraphLayouter() override;
  // Lays out the .dot files given, forgetting those of an earlier call.
  void start(std::vector<std::string> dot_paths);
  bool busy() const { return busy_; }

 signals:
  void laidOut(std::size_t index, std::shared_ptr<const tareador::view::TaskGraph> graph);
  void failed(std::size_t index, QString message);
  void finished();  // every graph of the last start() is laid out (or failed)

 private:
  // What this object shares with its threads, which may outlive it.
  struct Shared {
    std::mutex mutex;
    GraphLayouter* owner;
    std::uint64_t generation = 0;  // of the last start()
  };
  std::shared_ptr<Shared> shared_;
  bool busy_ = false;
};

}  // namespace tareador::view
