#include "viz/loader.h"

#include <QMetaObject>

namespace tareador::view {

Loader::Loader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<Loaded>>("std::shared_ptr<tareador::view::Loaded>");
}

Loader::~Loader() { cancel(); }

void Loader::cancel() {
  cancelled_ = true;
  if (worker_.joinable()) worker_.join();
}

void Loader::start(std::vector<std::string> paths) {
  cancel();
  cancelled_ = false;
  worker_ = std::thread([this, paths = std::move(paths)] {
    // Results cross to the GUI thread as queued calls on this object.
    int shown = -1;
    try {
      auto result =
          std::make_shared<Loaded>(load_inputs(resolve_inputs(paths), [&](double fraction) {
            int percent = static_cast<int>(fraction * 100);
            if (percent != shown) {
              shown = percent;
              QMetaObject::invokeMethod(
                  this, [this, percent] { emit progress(percent); }, Qt::QueuedConnection);
            }
            return !cancelled_;
          }));
      QMetaObject::invokeMethod(
          this, [this, result] { emit loaded(result); }, Qt::QueuedConnection);
    } catch (const LoadCancelled&) {
    } catch (const std::exception& e) {
      QString message = QString::fromStdString(e.what());
      QMetaObject::invokeMethod(
          this, [this, message] { emit failed(message); }, Qt::QueuedConnection);
    }
  });
}

GraphLayouter::GraphLayouter(QObject* parent)
    : QObject(parent), shared_(std::make_shared<Shared>()) {
  shared_->owner = this;
  qRegisterMetaType<std::shared_ptr<const TaskGraph>>(
      "std::shared_ptr<const tareador::view::TaskGraph>");
}

GraphLayouter::~GraphLayouter() {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  shared_->owner = nullptr;
}

void GraphLayouter::start(std::vector<std::string> dot_paths) {
  std::uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    generation = ++shared_->generation;
  }
  busy_ = !dot_paths.empty();
  if (!busy_) return;
  // Detached: the thread keeps what it needs, and delivers to this object only while it exists
  // and wants this start()'s graphs (the check and the queued call are under the lock the
  // destructor takes; Qt drops calls queued to an object deleted since).
  std::thread([shared = shared_, generation, paths = std::move(dot_paths)] {
    for (std::size_t i = 0; i < paths.size(); ++i) {
      {
        std::lock_guard<std::mutex> lock(shared->mutex);
        if (!shared->owner || shared->generation != generation) return;
      }
      std::shared_ptr<const TaskGraph> graph;
      QString error;
      try {
        graph = std::make_shared<const TaskGraph>(
            layout_task_graph(paths[i], static_cast<std::uint32_t>(rank_of_graph(paths[i]))));
      } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
      }
      std::lock_guard<std::mutex> lock(shared->mutex);
      GraphLayouter* owner = shared->owner;
      if (!owner || shared->generation != generation) return;
      bool last = i + 1 == paths.size();
      QMetaObject::invokeMethod(
          owner,
          [owner, shared, generation, i, graph, error, last] {
            if (shared->generation != generation) return;  // (written only where this runs)
            if (graph) emit owner->laidOut(i, graph);
            else emit owner->failed(i, error);
            if (last) {
              owner->busy_ = false;
              emit owner->finished();
            }
          },
          Qt::QueuedConnection);
    }
  }).detach();
}

}  // namespace tareador::view
