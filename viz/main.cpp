// tareador-view: the window, or with --export a picture of the same view without a display.
#include <QApplication>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "viz/command_line.h"
#include "viz/main_window.h"

using namespace tareador::view;

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)  // headless: Qt's offscreen platform, before Qt starts
    if (std::strcmp(argv[i], "--export") == 0 || std::strncmp(argv[i], "--export=", 9) == 0)
      qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setApplicationName("tareador-view");
  QApplication::setApplicationVersion(PACKAGE_VERSION);
  Options options = parse_command_line(app);
  if (!options.export_path.isEmpty()) return run_export(options);

  MainWindow window;
  window.show();
  if (!options.inputs.empty()) window.open(options.inputs, options);
  if (!options.screenshot.isEmpty()) {
    // Once loaded, the task graphs laid out, and painted: the window as it looks, then quit.
    bool loaded_ok = true;
    auto shoot = [&](bool ok) {
      QTimer::singleShot(500, &window, [&, ok] {
        bool saved = window.grab().save(options.screenshot);
        if (!saved)
          std::fprintf(stderr, "tareador-view: %s: cannot write the screenshot\n",
                       qPrintable(options.screenshot));
        QApplication::exit(ok && saved ? 0 : 1);
      });
    };
    QObject::connect(&window, &MainWindow::loadFinished, &window, [&](bool ok) {
      if (window.layingOut()) loaded_ok = ok;
      else shoot(ok);
    });
    QObject::connect(&window, &MainWindow::graphsLaidOut, &window,
                     [&](bool ok) { shoot(loaded_ok && ok); });
  }
  return app.exec();
}
