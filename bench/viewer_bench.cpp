// viewer_bench — how long tareador-view takes to open a trace and to redraw while zooming.
//
//   viewer_bench TRACE.prv... [--size WxH] [--repeat N]
//
// open: the inputs read into the model (what the window's loader thread does), best of N, and
// the memory that takes;
// first frame: the view laid out and painted once; redraws: the whole view (timelines, plots,
// legend) painted into an image after each step of a zoom from the whole run down to a few
// microseconds around its middle, then pans at that zoom. Runs on Qt's offscreen platform.
#include <sys/resource.h>
#include <unistd.h>

#include <QApplication>
#include <QImage>
#include <QLayout>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "viz/inputs.h"
#include "viz/timeline_view.h"

using namespace tareador::view;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double redraw(TimelineView& view, QImage& image) {
  auto start = Clock::now();
  view.render(&image);
  return seconds_since(start) * 1e3;
}

// Resident memory now, and at most so far, in MB.
double resident_mb() {
  long pages = 0, resident = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1048576.0;
}
double peak_mb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void summary(const char* what, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  std::printf("%-28s %4zu redraws   median %6.2f ms   max %6.2f ms\n", what, ms.size(),
              ms[ms.size() / 2], ms.back());
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  std::vector<std::string> paths;
  QSize size(1600, 1000);
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
      int w, h;
      if (std::sscanf(argv[++i], "%dx%d", &w, &h) == 2) size = QSize(w, h);
    } else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      paths.push_back(argv[i]);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: viewer_bench TRACE.prv... [--size WxH] [--repeat N]\n");
    return 1;
  }
  try {
    Loaded loaded;
    double best = 1e30, peak = 0, held = 0;
    for (int r = 0; r < repeat; ++r) {
      loaded = Loaded();  // the previous one freed first, as when the window opens another
      auto start = Clock::now();
      loaded = load_inputs(resolve_inputs(paths));
      best = std::min(best, seconds_since(start));
      if (r == 0) {  // the memory of one open (later ones reuse what the first freed)
        peak = peak_mb();
        held = resident_mb();
      }
    }
    std::size_t records = 0;
    for (const auto& t : loaded.timelines) {
      for (const Intervals& row : t->thread_states.intervals) records += row.size();
      for (const Events& row : t->thread_events) records += row.size();  // one per type:value
      records += t->messages.size();
    }
    std::printf("%-28s %.0f states, events and messages in %zu timeline(s)\n", "model",
                static_cast<double>(records), loaded.timelines.size());
    std::printf("%-28s %.2f s (best of %d)\n", "open", best, repeat);
    std::printf("%-28s %.0f MB at most while opening, %.0f MB once open\n", "memory", peak, held);

    ViewState state;
    auto start = Clock::now();
    state.setTimelines(loaded.timelines);
    TimelineView view(&state);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    view.resize(size);
    view.layout()->activate();
    QImage image(size, QImage::Format_RGB32);
    view.render(&image);
    std::printf("%-28s %.0f ms (%dx%d)\n", "first frame", seconds_since(start) * 1e3, size.width(),
                size.height());

    double end = state.traceEnd(), middle = end / 2;
    std::vector<double> zooms, pans;
    for (double width = end; width > 2000; width /= 2) {  // down to microseconds
      state.setRange(middle - width / 2, middle + width / 2);
      zooms.push_back(redraw(view, image));
    }
    for (int step = 0; step < 20; ++step) {
      state.pan(0.1);
      pans.push_back(redraw(view, image));
    }
    state.fit();
    std::vector<double> whole;
    for (int step = 0; step < 10; ++step) whole.push_back(redraw(view, image));
    summary("redraw, whole run", whole);
    summary("redraw, zooming in", zooms);
    summary("redraw, panning (zoomed)", pans);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "viewer_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
