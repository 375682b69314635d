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

}  // namespace tareador::view
