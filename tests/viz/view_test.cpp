// The viewer's widgets on Qt's offscreen platform: rows and labels, the state under a pixel,
// colours in an exported PNG, zooming, stacked timelines on one axis, message lines, the
// statistics of a selection and the task graph's link to the timeline.
#include <QLayout>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include "viz/describe.h"
#include "viz/inputs.h"
#include "viz/legend_strip.h"
#include "viz/main_window.h"
#include "viz/statistics_panel.h"
#include "viz/taskgraph_view.h"
#include "viz/timeline_canvas.h"
#include "viz/timeline_view.h"

using namespace tareador::view;

namespace {

const std::string kData = VIZ_TEST_DATA;
const QSize kSize(900, 500);

TimelinePtr load(const std::string& name) { return load_paraver(kData + "/" + name); }

// The colour small.pcf gives a state.
QRgb state_colour(const Timeline& t, int state) { return 0xff000000u | t.pcf.state_color(state); }

}  // namespace

class ViewTest : public QObject {
  Q_OBJECT

  // A view of small.prv (and any other timelines), laid out at kSize.
  struct Fixture {
    ViewState state;
    TimelineView view{&state};
    explicit Fixture(std::vector<TimelinePtr> timelines) {
      state.setTimelines(std::move(timelines));
      view.setAttribute(Qt::WA_DontShowOnScreen);
      view.show();
      view.resize(kSize);
      view.layout()->activate();
    }
    TimelineCanvas* canvas() { return view.canvas(); }
    QImage picture() { return canvas()->grab().toImage(); }
    QPoint centre(int timeline, std::uint32_t row, double time) {
      return QPoint(static_cast<int>(canvas()->xOf(time)),
                    static_cast<int>(canvas()->rowRect(timeline, row).center().y()));
    }
  };

 private slots:
  void oneRowPerThreadLabelledFromTheRowFile() {
    Fixture f({load("small.prv")});
    auto bands = f.canvas()->bands();
    QCOMPARE(bands.size(), std::size_t(1));
    QCOMPARE(bands[0].rows, 4u);
    // Rows tile the band in order; each has its label.
    for (std::uint32_t r = 0; r < 4; ++r) {
      int timeline;
      std::uint32_t row;
      QVERIFY(f.canvas()->rowAt(f.canvas()->rowRect(0, r).center().y(), timeline, row));
      QCOMPARE(row, r);
    }
    QCOMPARE(f.state.timelines()[0]->labels(RowLevel::Thread)[1], std::string("rank 1.0"));
    f.state.setRowLevel(RowLevel::Cpu);
    QCOMPARE(f.canvas()->bands()[0].rows, 4u);
    f.state.setRowLevel(RowLevel::Task);
    QCOMPARE(f.canvas()->bands()[0].rows, 3u);
    // The legend names what is shown, the statistics panel every row.
    QVERIFY(f.view.legend()->names().contains("Group Communication"));
  }

  void theStateUnderAPixel() {
    Fixture f({load("small.prv")});
    // Rank 0 waits for a message from 100 to 300 ns.
    Hit hit = f.canvas()->hitTest(f.centre(0, 0, 150));
    QCOMPARE(hit.kind, Hit::Interval);
    QCOMPARE(hit.row, 0u);
    const Intervals& row = f.state.timelines()[0]->thread_states.intervals[0];
    QCOMPARE(row.key(hit.index), 3u);
    QCOMPARE(row.begin(hit.index), Time(100));
    QCOMPARE(row.end(hit.index), Time(300));
    // Rank 1.1 is in a collective from 200 to 500 ns.
    hit = f.canvas()->hitTest(f.centre(0, 2, 450));
    QCOMPARE(hit.kind, Hit::Interval);
    QCOMPARE(f.state.timelines()[0]->thread_states.intervals[2].key(hit.index), 13u);
    // Left of the rows, the labels: nothing.
    QCOMPARE(f.canvas()->hitTest(QPoint(5, f.centre(0, 0, 0).y())).kind, Hit::Nothing);
  }

  void anExportedPngHasTheStateColoursWhereTheStatesAre() {
    Fixture f({load("small.prv")});
    QTemporaryDir dir;
    QString png = dir.filePath("view.png");
    QString error;
    QVERIFY2(f.view.exportTo(png, kSize, &error), qPrintable(error));
    QImage image(png);
    QCOMPARE(image.size(), kSize);
    const Timeline& t = *f.state.timelines()[0];
    QCOMPARE(image.pixel(f.centre(0, 0, 200)), state_colour(t, 3));   // waiting: red
    QCOMPARE(image.pixel(f.centre(0, 0, 600)), state_colour(t, 1));   // running: blue
    QCOMPARE(image.pixel(f.centre(0, 1, 330)), state_colour(t, 4));   // blocking send
    QCOMPARE(image.pixel(f.centre(0, 2, 350)), state_colour(t, 13));  // group communication
    QVERIFY(error.isEmpty());
    QVERIFY(!f.view.exportTo(dir.filePath("view.jpg"), kSize, &error));
    QVERIFY(error.contains(".png or .svg"));
    QVERIFY(f.view.exportTo(dir.filePath("view.svg"), kSize, &error));
    QFile svg(dir.filePath("view.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
  }

  // 5000 threads in fewer pixel lines: the last 500 wait (red) while the others run. Every row
  // is within the picture, and the waiting ones show as a band at the bottom.
  void moreRowsThanPixelsAreAllDrawn() {
    const int kThreads = 5000, kWaiting = 500;
    std::string prv = "#Paraver (01/01/26 at 00:00):1000_ns:0:1:" + std::to_string(kThreads) + "(";
    for (int i = 0; i < kThreads; ++i) prv += (i ? ",1:1" : "1:1");
    prv += ")\n";
    for (int i = 1; i <= kThreads; ++i)
      prv += "1:0:1:" + std::to_string(i) + ":1:0:1000:" + (i > kThreads - kWaiting ? "3" : "1") +
             "\n";
    QTemporaryDir dir;
    QFile file(dir.filePath("many.prv"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(prv.c_str());
    file.close();
    Fixture f({load_paraver(dir.filePath("many.prv").toStdString())});
    QString png = dir.filePath("many.png");
    QString error;
    QVERIFY2(f.view.exportTo(png, kSize, &error), qPrintable(error));
    QImage image(png);
    const Timeline& t = *f.state.timelines()[0];
    TimelineCanvas::Band band = f.canvas()->bands()[0];
    QVERIFY(band.rows_top + band.rows * band.row_height <= f.canvas()->height());
    double x = f.canvas()->xOf(500);
    auto colour_at = [&](int row) {
      return image.pixel(static_cast<int>(x),
                         static_cast<int>(band.rows_top + (row + 0.5) * band.row_height));
    };
    QCOMPARE(colour_at(0), state_colour(t, 1));
    QCOMPARE(colour_at(kThreads - kWaiting - 100), state_colour(t, 1));
    QCOMPARE(colour_at(kThreads - kWaiting + 100), state_colour(t, 3));
    QCOMPARE(colour_at(kThreads - 1), state_colour(t, 3));
  }

  void aZoomShowsExactlyTheRecordsOfItsRange() {
    Fixture f({load("small.prv")});
    f.state.setShowMessages(false);  // the lines would cross the colours checked
    f.state.setRange(250, 450);
    QCOMPARE(f.state.begin(), 250.0);
    QCOMPARE(f.state.end(), 450.0);
    QImage image = f.picture();
    const Timeline& t = *f.state.timelines()[0];
    // Every column of every row shows the state at that column's time: the records of
    // [250, 450), stretched over the whole width, and nothing else.
    for (std::uint32_t r = 0; r < 4; ++r) {
      const Intervals& row = t.thread_states.intervals[r];
      int y = static_cast<int>(f.canvas()->rowRect(0, r).center().y());
      for (int x = f.canvas()->gutter(); x < f.canvas()->width(); ++x) {
        double time = f.canvas()->timeAt(x + 0.5);
        std::size_t i = row.at(static_cast<Time>(time));
        QVERIFY(i < row.size());
        QVERIFY(row.begin(i) < 450 && row.end(i) > 250);
        double column = 200.0 / f.canvas()->plotWidth();  // ns
        if (time - static_cast<double>(row.begin(i)) < column ||
            static_cast<double>(row.end(i)) - time < column)
          continue;  // a column where two states meet shows the one covering more of it
        QCOMPARE(image.pixel(x, y), state_colour(t, static_cast<int>(row.key(i))));
      }
    }
    // Rank 0's first running state (0..100) is out of range: no blue left of 300 ns.
    int y = static_cast<int>(f.canvas()->rowRect(0, 0).center().y());
    for (int x = f.canvas()->gutter(); x < f.canvas()->xOf(299); ++x)
      QVERIFY(image.pixel(x, y) != state_colour(t, 1));
    // Keys zoom and pan the same range.
    QTest::keyClick(f.canvas(), Qt::Key_Plus);
    QCOMPARE(f.state.begin(), 300.0);
    QCOMPARE(f.state.end(), 400.0);
    QTest::keyClick(f.canvas(), Qt::Key_Home);
    QCOMPARE(f.state.end() - f.state.begin(), 1000.0);
  }

  void stackedTimelinesShareTheTimeAxis() {
    Fixture f({load("small.prv"), load("later.prv")});
    auto bands = f.canvas()->bands();
    QCOMPARE(bands.size(), std::size_t(2));
    QCOMPARE(bands[1].rows, 2u);
    QCOMPARE(f.state.end(), 2000.0);  // the longer of the two
    // The same time is the same column in both: later.prv's thread 2 waits from 400 to 1600,
    // small.prv's rank 2 from 600 to 700.
    QImage image = f.picture();
    const Timeline& later = *f.state.timelines()[1];
    QCOMPARE(image.pixel(f.centre(1, 1, 650)), state_colour(later, 3));
    QCOMPARE(image.pixel(f.centre(0, 3, 650)), state_colour(*f.state.timelines()[0], 3));
    QCOMPARE(f.canvas()->hitTest(f.centre(1, 1, 650)).kind, Hit::Interval);
    // The wheel zooms both around the cursor; each band still shows its own states at the
    // shared columns: at 800 ns small.prv's rank 2 runs, later.prv's thread 2 still waits.
    QPoint at = f.centre(0, 0, 500);
    QWheelEvent wheel(at, f.canvas()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(f.canvas(), &wheel);
    QVERIFY(f.state.end() - f.state.begin() < 2000.0);
    QVERIFY(std::abs(f.canvas()->timeAt(at.x()) - 500) <
            2 * (f.state.end() - f.state.begin()) / f.canvas()->plotWidth());
    QImage zoomed = f.picture();
    QCOMPARE(zoomed.pixel(f.centre(1, 1, 650)), state_colour(later, 3));
    QCOMPARE(zoomed.pixel(f.centre(0, 3, 650)), state_colour(*f.state.timelines()[0], 3));
    QCOMPARE(zoomed.pixel(f.centre(1, 1, 800)), state_colour(later, 3));
    QCOMPARE(zoomed.pixel(f.centre(0, 3, 800)), state_colour(*f.state.timelines()[0], 1));
    ProfilePlot* busy = f.view.plot("cores_busy");
    QCOMPARE(busy->width(), f.canvas()->width());
    std::vector<double> values = busy->values(0);
    QCOMPARE(static_cast<int>(values.size()), f.canvas()->plotWidth());
  }

  void aMessageLineJoinsItsSenderAndReceiver() {
    Fixture f({load("small.prv")});
    auto lines = f.canvas()->messageLines(0);
    QCOMPARE(lines.size(), std::size_t(2));
    const Timeline& t = *f.state.timelines()[0];
    for (const auto& ml : lines) {
      const Message& m = t.messages[ml.message];
      QVERIFY(f.canvas()->rowRect(0, m.send_row).contains(ml.line.p1()));
      QVERIFY(f.canvas()->rowRect(0, m.recv_row).contains(ml.line.p2()));
      QCOMPARE(ml.line.x1(), f.canvas()->xOf(static_cast<double>(m.physical_send)));
      QCOMPARE(ml.line.x2(), f.canvas()->xOf(static_cast<double>(m.physical_recv)));
    }
    // The first goes from rank 1.0 up to rank 0; pointing at its middle picks it.
    const auto& first = lines[0].line;
    QCOMPARE(t.messages[lines[0].message].send_row, 1u);
    QCOMPARE(t.messages[lines[0].message].recv_row, 0u);
    Hit hit = f.canvas()->hitTest(first.center());
    QCOMPARE(hit.kind, Hit::Message);
    QCOMPARE(hit.index, lines[0].message);
    // Hidden: no lines to pick.
    f.state.setShowMessages(false);
    QCOMPARE(f.canvas()->hitTest(first.center()).kind, Hit::Interval);
    // By CPU: rank 1.0 ran on CPU 2, rank 0 on CPU 1.
    f.state.setShowMessages(true);
    f.state.setRowLevel(RowLevel::Cpu);
    lines = f.canvas()->messageLines(0);
    QVERIFY(f.canvas()->rowRect(0, 1).contains(lines[0].line.p1()));
    QVERIFY(f.canvas()->rowRect(0, 0).contains(lines[0].line.p2()));
  }

  void detailsNameTheFunctionAndItsSourceLine() {
    // Extrae's output: user functions and their source lines are events with named values.
    Fixture f({load("extrae.prv")});
    Hit hit = f.canvas()->hitTest(f.centre(0, 0, 2000));
    QCOMPARE(hit.kind, Hit::Interval);
    QString details = describe(f.state, hit, true);
    QVERIFY2(details.contains("Running"), qPrintable(details));
    QVERIFY2(details.contains("User function</td><td>compute"), qPrintable(details));
    QVERIFY2(details.contains("42 (compute.c)"), qPrintable(details));
    QVERIFY2(details.contains("node1"), qPrintable(details));  // the CPU, from the .row
    // The message: size and tag.
    auto lines = f.canvas()->messageLines(0);
    QCOMPARE(lines.size(), std::size_t(1));
    hit = f.canvas()->hitTest(lines[0].line.center());
    QCOMPARE(hit.kind, Hit::Message);
    details = describe(f.state, hit, true);
    QVERIFY2(details.contains("1 KiB (1024 B)") && details.contains("tag</td><td>42"),
             qPrintable(details));
    // Coloured by user function, the function's interval has its own colour.
    f.state.setColourBy(60000019);
    QCOMPARE(f.picture().pixel(f.centre(0, 0, 2000)), 0xff000000u | value_color(2));
  }

  void aSelectionShowsItsDurationAndStatistics() {
    MainWindow window;
    Loaded loaded = load_inputs(resolve_inputs({kData + "/small.prv", kData + "/taskgraph.dot"}));
    window.display(loaded);
    QCOMPARE(window.state()->colourBy(),
             9200001u);  // by task type, by default, where there are tasks
    window.state()->setColourBy(0);
    window.state()->setSelection(100, 300);
    QTableWidget* rows = window.statistics()->perRow();
    QCOMPARE(rows->rowCount(), 4);
    QCOMPARE(rows->item(0, 0)->text(), QString("rank 0"));
    QCOMPARE(rows->horizontalHeaderItem(3)->text(), QString("waiting"));
    QCOMPARE(rows->item(0, 3)->data(Qt::UserRole).toDouble(), 1.0);   // rank 0 waited throughout
    QCOMPARE(rows->item(1, 1)->data(Qt::UserRole).toDouble(), 0.75);  // rank 1.0 ran 150 of 200 ns
  }

  // The 441-node graph fits the pane on open, zooms by keys and wheel around what is under the
  // cursor, pans by keys and drag, and fits again with Home or the Fit button.
  void theTaskGraphFitsZoomsAndPans() {
    TaskGraphView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.resize(500, 400);
    view.show();
    auto graph = std::make_shared<const TaskGraph>(layout_task_graph(kData + "/fft3d.dot"));
    view.setGraph(graph, {});
    auto inside = [&] {
      for (const TaskGraph::Node& n : graph->nodes) {
        QPointF c = view.toWidget(n.centre);
        QRectF box(c.x() - n.width * view.scale() / 2, c.y() - n.height * view.scale() / 2,
                   n.width * view.scale(), n.height * view.scale());
        if (!QRectF(view.rect()).contains(box)) return false;
      }
      return true;
    };
    QVERIFY(inside());
    double fitted = view.scale();
    // The graph fills the pane in one direction (not a line in the middle of it).
    QVERIFY(graph->width * fitted > 400 || graph->height * fitted > 300);
    QVERIFY(view.fitButton()->isVisible());

    QPointF centre(250, 200);
    Point under{(centre.x() - view.toWidget({0, 0}).x()) / fitted,
                (centre.y() - view.toWidget({0, 0}).y()) / fitted};
    QTest::keyClick(&view, Qt::Key_Plus);
    QCOMPARE(view.scale(), fitted * 1.25);
    QVERIFY((view.toWidget(under) - centre).manhattanLength() < 1e-6);  // zoomed around the centre
    QVERIFY(!inside());
    QPointF before = view.toWidget({0, 0});
    QTest::keyClick(&view, Qt::Key_Right);
    QVERIFY(view.toWidget({0, 0}).x() < before.x());
    before = view.toWidget({0, 0});
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(100, 100));
    QMouseEvent move(QEvent::MouseMove, QPointF(160, 130), view.mapToGlobal(QPointF(160, 130)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(160, 130));
    QCOMPARE(view.toWidget({0, 0}), before + QPointF(60, 30));
    QWheelEvent wheel(QPointF(100, 100), view.mapToGlobal(QPointF(100, 100)), QPoint(),
                      QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    QCOMPARE(view.scale(), fitted);  // one notch back
    // Zoomed or panned, a resize keeps the view; Home fits again, and so does the button, and
    // after them a resize refits.
    double kept = view.scale();
    view.resize(600, 500);
    QCOMPARE(view.scale(), kept);
    QTest::keyClick(&view, Qt::Key_Home);
    QVERIFY(inside());
    QVERIFY(view.scale() > fitted);
    QTest::keyClick(&view, Qt::Key_Minus);
    view.fitButton()->click();
    QVERIFY(inside());
    view.resize(300, 600);
    QVERIFY(inside());
  }

  // Laying a graph out takes minutes for thousands of nodes: the timelines show at once, the
  // graph's pane says it is being laid out, and the graph comes when it is.
  void theTimelineShowsWhileTheGraphIsLaidOut() {
    MainWindow window;
    QSignalSpy laid_out(&window, &MainWindow::graphsLaidOut);
    Loaded loaded = load_inputs(resolve_inputs({kData + "/small.prv", kData + "/taskgraph.dot"}));
    window.display(loaded);
    QCOMPARE(window.state()->timelines().size(), std::size_t(1));
    QVERIFY(window.layingOut());
    const TaskGraph* waiting = window.taskGraph()->graph();
    QVERIFY(waiting && waiting->nodes.empty());
    QVERIFY2(waiting->note.find("Laying out") != std::string::npos, waiting->note.c_str());
    QVERIFY(laid_out.wait(20000));
    QCOMPARE(laid_out.first().first().toBool(), true);
    QVERIFY(!window.layingOut());
    QVERIFY(!window.taskGraph()->graph()->nodes.empty());
  }

  void aTaskInTheGraphIsFoundInTheTimeline() {
    MainWindow window;
    window.display(load_inputs(resolve_inputs({kData + "/small.prv", kData + "/taskgraph.dot"})));
    window.state()->setColourBy(0);
    QTRY_VERIFY_WITH_TIMEOUT(!window.layingOut(), 20000);
    const TaskGraph* graph = window.taskGraph()->graph();
    QVERIFY(graph && !graph->nodes.empty());
    window.pickTask(graph->node_of_instance(0, 5));
    const Highlight& h = window.state()->highlight();
    QCOMPARE(h.timeline, 0);
    QCOMPARE(h.row, 0u);
    QCOMPARE(h.begin, Time(300));
    QCOMPARE(h.end, Time(900));
    // And back: picking a state of that instance selects its node.
    window.state()->setHighlight(Highlight());
    Hit hit;
    hit.kind = Hit::Interval;
    hit.timeline = 0;
    hit.row = 0;
    hit.index = 2;  // running, 300..1000
    hit.time = 500;
    window.pick(hit);
    QCOMPARE(window.taskGraph()->selected(), graph->node_of_instance(0, 5));
  }
};

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  ViewTest test;
  return QTest::qExec(&test, argc, argv);
}
#include "view_test.moc"
