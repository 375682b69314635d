// The viewer's model: reading Paraver traces, answering what the timeline shows, and saying
// file:line for bad inputs. tests/viz/data/small.prv is a 4-thread trace whose every record the
// tests know (see the file).
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <random>

#include "viz/inputs.h"
#include "viz/taskgraph.h"
#include "viz/timeline.h"

using namespace tareador::view;

namespace {

const std::string kData = VIZ_TEST_DATA;

void write(const QString& path, const std::string& text) {
  std::ofstream out(path.toStdString(), std::ios::binary);
  out << text;
}

// The message a load throws, or "" if it loads.
std::string load_error(const std::string& prv) {
  try {
    load_paraver(prv);
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

double average(const Profile& profile, double t0, double t1) {
  double value;
  profile.averages(t0, t1, 1, &value);
  return value;
}

struct Expected {
  Time begin, end;
  std::uint32_t state;
};

// small.prv's states, by thread row.
const std::vector<std::vector<Expected>> kStates = {
    {{0, 100, 1}, {100, 300, 3}, {300, 1000, 1}},
    {{0, 250, 1}, {250, 400, 4}, {400, 1000, 1}},
    {{0, 200, 1}, {200, 500, 13}, {500, 1000, 1}},
    {{0, 600, 1}, {600, 700, 3}, {700, 1000, 1}},
};

}  // namespace

class ModelTest : public QObject {
  Q_OBJECT
 private slots:
  void rowsAndLabelsComeFromTheHeaderAndTheRowFile() {
    auto t = load_paraver(kData + "/small.prv");
    QCOMPARE(t->end_time, Time(1000));
    QCOMPARE(t->thread_labels,
             (std::vector<std::string>{"rank 0", "rank 1.0", "rank 1.1", "rank 2"}));
    QCOMPARE(t->task_labels, (std::vector<std::string>{"rank 0", "rank 1", "rank 2"}));
    QCOMPARE(t->cpu_labels.size(), std::size_t(4));
    QCOMPARE(t->cpu_labels[3], std::string("node2.cpu2"));
    QCOMPARE(t->task_of_thread, (std::vector<std::uint32_t>{0, 1, 1, 2}));
    QVERIFY(t->warnings.empty());
  }

  void statesEventsAndMessagesAreRead() {
    auto t = load_paraver(kData + "/small.prv");
    for (std::size_t r = 0; r < kStates.size(); ++r) {
      const Intervals& row = t->thread_states.intervals[r];
      QCOMPARE(row.size(), kStates[r].size());
      for (std::size_t i = 0; i < row.size(); ++i) {
        QCOMPARE(row.begin(i), kStates[r][i].begin);
        QCOMPARE(row.end(i), kStates[r][i].end);
        QCOMPARE(row.key(i), kStates[r][i].state);
      }
    }
    QCOMPARE(t->thread_states.intervals[3].resource(0), 4u);  // rank 2 ran on CPU 4
    QCOMPARE(t->thread_states.legend[3].name, std::string("Waiting a message"));
    QCOMPARE(t->thread_states.legend[1].rgb, 0x0000ffu);
    // Row 0: MPI_Recv at 100, its end and the task type and instance at 300, ...
    const Events& e = t->thread_events[0];
    QCOMPARE(e.size(), std::size_t(8));
    QCOMPARE(e.time[0], Time(100));
    QCOMPARE(t->pcf.event_value_name(e.type[0], e.value[0]), std::string("MPI_Recv"));
    QCOMPARE(t->messages.size(), std::size_t(2));
    const Message& m = t->messages[0];
    QCOMPARE(m.send_row, 1u);
    QCOMPARE(m.recv_row, 0u);
    QCOMPARE(m.physical_send, Time(260));
    QCOMPARE(m.physical_recv, Time(290));
    QCOMPARE(m.size, std::int64_t(4096));
    QCOMPARE(m.tag, std::int64_t(7));
    QCOMPARE(t->message_row(t->messages[1], false, RowLevel::Task), 1u);
    QCOMPARE(t->message_row(t->messages[1], true, RowLevel::Cpu), 3u);
  }

  void aRangeFindsExactlyTheIntervalsInIt() {
    // Random intervals, some overlapping (as in CPU rows), against brute force.
    std::mt19937 random(7);
    Intervals row;
    std::vector<std::pair<Time, Time>> all;
    Time at = 0;
    for (int i = 0; i < 5000; ++i) {
      at += random() % 50;
      Time length = 1 + random() % (i % 100 == 0 ? 2000 : 60);
      row.add(at, at + length, random() % 5, 0);
      all.emplace_back(at, at + length);
    }
    row.finish();
    for (int query = 0; query < 200; ++query) {
      Time t0 = random() % (at + 100), t1 = t0 + 1 + random() % 3000;
      auto [first, last] = row.overlapping(t0, t1);
      std::size_t in_range = 0;
      for (std::size_t i = 0; i < all.size(); ++i) {
        bool overlaps = all[i].first < t1 && all[i].second > t0;
        if (overlaps) {
          ++in_range;
          QVERIFY2(i >= first && i < last, "an interval of the range is left out");
        }
      }
      std::size_t reported = 0;
      for (std::size_t i = first; i < last; ++i) reported += row.begin(i) < t1 && row.end(i) > t0;
      QCOMPARE(reported, in_range);
    }
  }

  void eachColumnShowsTheValueCoveringMostOfIt() {
    Intervals row;
    row.add(0, 10, 1, 0);
    row.add(10, 12, 2, 0);
    row.add(12, 40, 1, 0);
    row.add(50, 58, 3, 0);
    row.finish();
    std::vector<std::uint32_t> keys(6);
    row.dominant_keys(0, 60, 6, keys.data());
    QCOMPARE(keys, (std::vector<std::uint32_t>{1, 1, 1, 1, kNoKey, 3}));
    row.dominant_keys(10, 12, 2, keys.data());
    QCOMPARE(keys[0], 2u);
    QCOMPARE(keys[1], 2u);
  }

  void theLevelOfDetailAggregatesManyIntervalsPerColumn() {
    // 100000 intervals: 9 ns of key 1 and 1 ns of key 2, then a long stretch of key 3.
    Intervals row;
    Time at = 0;
    for (int i = 0; i < 100000; ++i, at += 10) {
      row.add(at, at + 9, 1, 0);
      row.add(at + 9, at + 10, 2, 0);
    }
    row.add(at, 2 * at, 3, 0);
    row.finish();
    std::vector<std::uint32_t> keys(100);
    row.dominant_keys(0, 2.0 * at, 100, keys.data());  // 20000 ns per column: the pyramid
    for (int c = 0; c < 50; ++c) QCOMPARE(keys[c], 1u);
    for (int c = 50; c < 100; ++c) QCOMPARE(keys[c], 3u);
    row.dominant_keys(90, 100, 10, keys.data());  // 1 ns per column: exact
    for (int c = 0; c < 9; ++c) QCOMPARE(keys[c], 1u);
    QCOMPARE(keys[9], 2u);
  }

  void rowsDrawnAsOneShowTheStateWithMostTimeOverThem() {
    // More rows than pixel lines: rows drawn on one line sum their time per key, so a key every
    // row has a little of, or one row has all the time, is not lost to the first row's.
    RowSet set;
    set.intervals.resize(4);
    set.intervals[0].add(0, 100, 1, 0);  // Running throughout
    set.intervals[1].add(0, 100, 3, 0);  // Waiting throughout, twice
    set.intervals[2].add(0, 100, 3, 0);
    // Row 3: 2000 records (the pyramid answers coarse columns), Running 3 ns in 10.
    for (Time at = 0; at < 20000; at += 10) {
      set.intervals[3].add(at, at + 3, 1, 0);
      set.intervals[3].add(at + 3, at + 10, 4, 0);
    }
    for (Intervals& row : set.intervals) row.finish();
    std::vector<std::uint32_t> keys(2);
    set.dominant_keys(0, 3, 0, 100, 2, keys.data());
    QCOMPARE(keys, (std::vector<std::uint32_t>{3, 3}));  // not row 0's Running
    set.dominant_keys(0, 1, 0, 100, 2, keys.data());
    QCOMPARE(keys, (std::vector<std::uint32_t>{1, 1}));
    set.dominant_keys(1, 4, 0, 200, 2, keys.data());  // 100 ns of Waiting twice: 200 of 200
    QCOMPARE(keys, (std::vector<std::uint32_t>{3, 4}));
    set.dominant_keys(0, 4, 0, 20000, 2, keys.data());  // 2 columns of 10000 ns: the pyramid
    QCOMPARE(keys, (std::vector<std::uint32_t>{4, 4}));
    set.dominant_keys(2, 2, 0, 100, 2, keys.data());  // no row
    QCOMPARE(keys, (std::vector<std::uint32_t>{kNoKey, kNoKey}));
  }

  void aColumnShowsTheStateWithMostTimeNotTheMostBucketsWon() {
    // Waiting, Blocking send, Wait/WaitAll, Group communication (20 ns each), each followed by
    // Running (10 ns): Running is a third of every stretch of the run, every other state a sixth.
    const std::uint32_t kOthers[] = {3, 4, 8, 13};
    const int kPeriods = 20000;
    std::string prv =
        "#Paraver (01/01/26 at 00:00):" + std::to_string(kPeriods * 120) + "_ns:1(1):1:1(1:1)\n";
    Time at = 0;
    for (int i = 0; i < kPeriods; ++i)
      for (std::uint32_t state : kOthers) {
        for (auto [key, length] : {std::pair<std::uint32_t, Time>{state, 20}, {1u, 10}}) {
          prv += "1:1:1:1:1:" + std::to_string(at) + ":" + std::to_string(at + length) + ":" +
                 std::to_string(key) + "\n";
          at += length;
        }
      }
    QTemporaryDir dir;
    write(dir.filePath("lod.prv"), prv);
    auto t = load_paraver(dir.filePath("lod.prv").toStdString());
    const Intervals& row = t->thread_states.intervals[0];
    // Whole run at several widths, and zoomed in: each column spans ten periods or more.
    struct Zoom {
      double t0, t1;
      int columns;
    };
    for (Zoom z : {Zoom{0, double(at), 1504}, Zoom{0, double(at), 2000}, Zoom{0, double(at), 97},
                   Zoom{0, double(at), 1}, Zoom{1e6, 1.2e6, 150}, Zoom{333, 96333, 64}}) {
      std::vector<std::uint32_t> keys(static_cast<std::size_t>(z.columns));
      row.dominant_keys(z.t0, z.t1, z.columns, keys.data());
      for (int c = 0; c < z.columns; ++c) QCOMPARE(keys[static_cast<std::size_t>(c)], 1u);
    }
    // Zoomed in to 5 ns per column, each state shows where it is.
    std::vector<std::uint32_t> keys(24);
    row.dominant_keys(0, 120, 24, keys.data());
    QCOMPARE(keys, (std::vector<std::uint32_t>{3, 3, 3, 3, 1, 1, 4,  4,  4,  4,  1, 1,
                                               8, 8, 8, 8, 1, 1, 13, 13, 13, 13, 1, 1}));
  }

  void aTaskRowShowsTheStateWithMostTimeOverItsThreads() {
    // One task of 3 threads: threads 1 and 2 Running throughout, thread 3 Waiting a message in
    // 100-ns records. The task row is Running two thirds of the time, in every column.
    for (int records : {10, 5000}) {
      std::string prv =
          "#Paraver (01/01/26 at 00:00):" + std::to_string(records * 100) + "_ns:1(3):1:1(3:1)\n";
      std::string end = std::to_string(records * 100);
      prv += "1:1:1:1:1:0:" + end + ":1\n1:2:1:1:2:0:" + end + ":1\n";
      for (int k = 0; k < records; ++k)
        prv +=
            "1:3:1:1:3:" + std::to_string(k * 100) + ":" + std::to_string(k * 100 + 100) + ":3\n";
      QTemporaryDir dir;
      write(dir.filePath("t.prv"), prv);
      auto t = load_paraver(dir.filePath("t.prv").toStdString());
      const Intervals& row = t->rows(RowLevel::Task, Semantic{}).intervals[0];
      // Eight columns per record (exact), ten records per column, and the whole run.
      double whole = records * 100.0;
      for (int columns : {records * 8, records / 10, 1}) {
        std::vector<std::uint32_t> keys(static_cast<std::size_t>(columns));
        row.dominant_keys(0, whole, columns, keys.data());
        for (int c = 0; c < columns; ++c) QCOMPARE(keys[static_cast<std::size_t>(c)], 1u);
      }
    }
  }

  void statisticsOfATaskRowAreSharesOfItsThreadsTime() {
    // One task of 4 threads, all Running throughout: 100 % Running, not 400 %.
    QTemporaryDir dir;
    write(dir.filePath("t.prv"),
          "#Paraver (01/01/26 at 00:00):1000_ns:1(4):1:1(4:1)\n1:1:1:1:1:0:1000:1\n"
          "1:2:1:1:2:0:1000:1\n1:3:1:1:3:0:1000:1\n1:4:1:1:4:0:1000:1\n");
    auto t = load_paraver(dir.filePath("t.prv").toStdString());
    RangeStatistics tasks = t->statistics(RowLevel::Task, Semantic{}, 250, 750);
    QCOMPARE(tasks.per_row[0][1], Time(4 * 500));
    QCOMPARE(tasks.row_time, (std::vector<Time>{4 * 500}));
    QCOMPARE(tasks.all_rows_time, Time(4 * 500));
    RangeStatistics threads = t->statistics(RowLevel::Thread, Semantic{}, 250, 750);
    QCOMPARE(threads.row_time, (std::vector<Time>{500, 500, 500, 500}));
    QCOMPARE(threads.all_rows_time, Time(4 * 500));
  }

  void statisticsAndProfilesOfARange() {
    auto t = load_paraver(kData + "/small.prv");
    RangeStatistics s = t->statistics(RowLevel::Thread, Semantic{}, 100, 400);
    QCOMPARE(s.per_row[0][3], Time(200));  // waiting 100..300
    QCOMPARE(s.per_row[0][1], Time(100));  // running 300..400
    QCOMPARE(s.per_row[2][13], Time(200));
    QCOMPARE(s.per_key[1], Time(100 + 150 + 100 + 300));
    // Cores busy: four threads run during [0, 100), three during [100, 200).
    QCOMPARE(average(t->cores_busy, 0, 100), 4.0);
    QCOMPARE(average(t->cores_busy, 100, 200), 3.0);
    QCOMPARE(average(t->cores_busy, 50, 150), 3.5);
    std::vector<double> columns(4);
    t->cores_busy.averages(0, 200, 4, columns.data());
    QCOMPARE(columns, (std::vector<double>{4, 4, 3, 3}));
    // 4096 bytes in 30 ns, then 65536 in 60 ns.
    QCOMPARE(average(t->bandwidth, 260, 290), 4096.0 / 30);
    QCOMPARE(average(t->bandwidth, 0, 1000) * 1000, 4096.0 + 65536.0);
    // In flight: [250, 290) and [580, 650).
    QCOMPARE(average(t->in_flight, 250, 290), 1.0);
    QCOMPARE(average(t->in_flight, 0, 1000) * 1000, 40.0 + 70.0);
  }

  void rowsGroupByTaskAndByCpu() {
    auto t = load_paraver(kData + "/small.prv");
    const RowSet& tasks = t->rows(RowLevel::Task, Semantic{});
    QCOMPARE(tasks.intervals.size(), std::size_t(3));
    QCOMPARE(tasks.intervals[1].size(), std::size_t(6));  // both threads of rank 1
    const RowSet& cpus = t->rows(RowLevel::Cpu, Semantic{});
    QCOMPARE(cpus.intervals.size(), std::size_t(4));
    QCOMPARE(cpus.intervals[3].size(), std::size_t(3));  // rank 2 ran on CPU 4
    QCOMPARE(cpus.intervals[3].resource(0), 3u);         // its thread row
  }

  void eventValuesNestAndNameTheTasks() {
    auto t = load_paraver(kData + "/small.prv");
    auto types = t->colouring_event_types();
    QVERIFY(std::find(types.begin(), types.end(),
                      std::make_pair(9200001u, std::string("Task type"))) != types.end());
    const RowSet& task_types = t->rows(RowLevel::Thread, Semantic{9200001});
    const Intervals& row = task_types.intervals[0];
    QCOMPARE(row.size(), std::size_t(1));
    QCOMPARE(row.begin(0), Time(300));
    QCOMPARE(row.end(0), Time(900));
    QCOMPARE(task_types.legend[row.key(0)].name, std::string("update"));
    QCOMPARE(task_types.legend[row.key(0)].rgb, value_color(2));
    QCOMPARE(t->task_instance_type(), 9200002u);
    std::uint32_t thread_row;
    Time begin, end;
    QVERIFY(t->find_task_instance(0, 5, thread_row, begin, end));
    QCOMPARE(thread_row, 0u);
    QCOMPARE(begin, Time(300));
    QCOMPARE(end, Time(900));
    QVERIFY(!t->find_task_instance(1, 5, thread_row, begin, end));
  }

  void extraeOutputIsRead() {
    auto t = load_paraver(kData + "/extrae.prv");
    QCOMPARE(t->thread_labels, (std::vector<std::string>{"THREAD 1.1.1", "THREAD 1.2.1"}));
    QCOMPARE(t->cpu_labels, (std::vector<std::string>{"1.node1", "2.node1"}));
    QCOMPARE(t->thread_states.intervals[0].size(), std::size_t(3));
    QCOMPARE(t->thread_states.legend[10].name, std::string("Immediate Send"));
    QCOMPARE(t->messages.size(), std::size_t(1));
    QCOMPARE(t->messages[0].tag, std::int64_t(42));
    std::vector<std::string> colouring;
    for (const auto& [type, name] : t->colouring_event_types()) colouring.push_back(name);
    QCOMPARE(colouring, (std::vector<std::string>{"Application", "MPI Point-to-point",
                                                  "User function", "User function line"}));
    const RowSet& functions = t->rows(RowLevel::Thread, Semantic{60000019});
    QCOMPARE(functions.intervals[0].size(), std::size_t(1));
    QCOMPARE(functions.intervals[0].begin(0), Time(1000));
    QCOMPARE(functions.intervals[0].end(0), Time(4000));
    QCOMPARE(functions.legend[functions.intervals[0].key(0)].name, std::string("compute"));
  }

  void aTraceWithoutPcfOrRowUsesParaversNames() {
    auto t = load_paraver(kData + "/later.prv");
    QCOMPARE(t->warnings.size(), std::size_t(2));
    QCOMPARE(t->thread_labels[1], std::string("THREAD 1.2.1"));
    QCOMPARE(t->thread_states.legend[3].name, std::string("Waiting a message"));
    QCOMPARE(t->cpu_labels.size(), std::size_t(2));
  }

  void anEmptyPcfLeavesTheStandardStatesAndACutFileIsNoted() {
    QTemporaryDir dir;
    QString prv = dir.filePath("d.prv");
    write(prv,
          "#Paraver (01/01/70 at 00:00):20_ns:1(1):1:1(1:1),0\n1:1:1:1:1:0:10:3\n"
          "1:1:1:1:1:10:20:1");  // (cut: the line end is missing)
    write(dir.filePath("d.pcf"), "");
    write(dir.filePath("d.row"), "LEVEL THREAD SIZE 1\nrank 0\n");
    auto t = load_paraver(prv.toStdString());
    QCOMPARE(t->thread_states.legend[3].name, std::string("Waiting a message"));
    QCOMPARE(t->warnings.size(), std::size_t(2));
    QVERIFY2(t->warnings[0].find("d.pcf: names no states; Paraver's standard") != std::string::npos,
             t->warnings[0].c_str());
    QVERIFY2(t->warnings[1].find("d.prv: the last line has no line end") != std::string::npos,
             t->warnings[1].c_str());
  }

  void timesWithoutUnitAreMicroseconds() {
    QTemporaryDir dir;
    QString prv = dir.filePath("us.prv");
    write(prv, "#Paraver (01/01/70 at 00:00):20:1(1):1:1(1:1),0\n1:1:1:1:1:5:15:1\n");
    auto t = load_paraver(prv.toStdString());
    QCOMPARE(t->end_time, Time(20000));
    QCOMPARE(t->thread_states.intervals[0].begin(0), Time(5000));
  }

  // A header written before its body pads its end time to 20 digits (replay, BSC's ovni).
  void aPaddedEndTimeIsANumber() {
    QTemporaryDir dir;
    QString prv = dir.filePath("padded.prv");
    write(prv,
          "#Paraver (01/01/70 at 00:00):00000000000000000020_ns:1(1):1:1(1:1),0\n"
          "1:1:1:1:1:5:15:1\n");
    auto t = load_paraver(prv.toStdString());
    QCOMPARE(t->end_time, Time(20));
  }

  void badInputsSayFileAndLine_data() {
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("expected");
    QString header = "#Paraver (01/01/70 at 00:00):1000_ns:1(2):1:2(1:1,1:1),0\n";
    QTest::newRow("not paraver") << "hello\n"
                                 << ":1: not a Paraver trace";
    QTest::newRow("bad header") << "#Paraver (01/01/70 at 00:00):1000_ns:1(2):1:2(1:1\n"
                                << ":1: malformed Paraver header";
    QTest::newRow("letter") << header + "1:1:1:1:1:0:10:1\n1:1:1:1:1:x:20:1\n"
                            << ":3: expected a number for the begin time";
    QTest::newRow("short") << header + "\n1:1:1:1:1:0:10\n"
                           << ":3: the record ends after the end time";
    QTest::newRow("long") << header + "1:1:1:1:1:0:10:1:7\n"
                          << ":2: unexpected ':' after the state";
    QTest::newRow("task") << header + "1:1:1:3:1:0:10:1\n"
                          << ":2: task 3 is not in the header";
    QTest::newRow("cpu") << header + "1:9:1:1:1:0:10:1\n"
                         << ":2: CPU 9 is not in the header";
    QTest::newRow("backwards") << header + "1:1:1:1:1:10:5:1\n"
                               << ":2: the state ends (5) before it begins (10)";
    QTest::newRow("record") << header + "1:1:1:1:1:0:10:1\n7:1:1\n"
                            << ":3: unknown record type '7'";
    QTest::newRow("event pair") << header + "2:1:1:1:1:5:50000001\n"
                                << ":2: the record ends after an event type";
    QTest::newRow("message") << header + "3:1:1:1:1:0:0:2:1:2:1:0:5:8\n"
                             << ":2: the record ends after the size";
  }
  void badInputsSayFileAndLine() {
    QFETCH(QString, body);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QString prv = dir.filePath("bad.prv");
    write(prv, body.toStdString());
    std::string error = load_error(prv.toStdString());
    QVERIFY2(QString::fromStdString(error).startsWith(prv + expected), error.c_str());
  }

  void badCompanionFilesSayFileAndLine() {
    QTemporaryDir dir;
    QString prv = dir.filePath("t.prv");
    write(prv, "#Paraver (01/01/70 at 00:00):1000_ns:1(1):1:1(1:1),0\n1:1:1:1:1:0:10:1\n");
    write(dir.filePath("t.pcf"), "STATES\n0 Idle\n1 Running\n\nSTATES_COLOR\n0 {1,2,3}\n1 {1,2}\n");
    QCOMPARE(QString::fromStdString(load_error(prv.toStdString())),
             dir.filePath("t.pcf") + ":7: expected 'STATE {R,G,B}' in STATES_COLOR");
    write(dir.filePath("t.pcf"), "STATES\n1 Running\n");
    write(dir.filePath("t.row"), "LEVEL THREAD SIZE 3\nrank 0\n");
    QCOMPARE(QString::fromStdString(load_error(prv.toStdString())),
             dir.filePath("t.row") + ":1: LEVEL THREAD announces 3 labels, the file ends after 1");
    write(dir.filePath("t.row"), "THREAD 1\n");
    QCOMPARE(QString::fromStdString(load_error(prv.toStdString())),
             dir.filePath("t.row") + ":1: expected 'LEVEL NAME SIZE N'");
    QCOMPARE(QString::fromStdString(load_error(dir.filePath("none.prv").toStdString())),
             dir.filePath("none.prv") + ": cannot open: no such file or directory");
  }

  void aTraceSetShowsItsReplaysAuthenticFirst() {
    QTemporaryDir dir;
    QDir set(dir.path());
    set.mkpath("replay");
    for (const char* kind :
         {"overlap-ideal", "tasks", "overlap-speculative", "authentic", "overlap-real"})
      QFile::copy(QString::fromStdString(kData + "/small.prv"),
                  set.filePath(QString("replay/%1.prv").arg(kind)));
    QFile::copy(QString::fromStdString(kData + "/taskgraph.dot"), set.filePath("taskgraph.dot"));
    Inputs inputs = resolve_inputs({dir.path().toStdString()});
    std::vector<std::string> names;
    for (const auto& [name, path] : inputs.timelines) names.push_back(name);
    QCOMPARE(names, (std::vector<std::string>{"authentic", "overlap-real", "overlap-ideal",
                                              "overlap-speculative", "tasks"}));
    QCOMPARE(inputs.task_graphs.size(), std::size_t(1));
    // Two sets: their timelines are told apart by the set's name.
    Inputs two = resolve_inputs({dir.path().toStdString(), kData + "/small.prv"});
    QCOMPARE(two.timelines.back().first, std::string("small"));
  }

  void aTraceSetWithoutReplayIsAnError() {
    QTemporaryDir dir;
    try {
      resolve_inputs({dir.path().toStdString()});
      QFAIL("no error");
    } catch (const LoadError& e) {
      QVERIFY(std::string(e.what()).find("no simulated timeline in") != std::string::npos);
    }
  }

  void theTaskGraphIsLaidOut() {
    TaskGraph g = layout_task_graph(kData + "/taskgraph.dot");
    QCOMPARE(g.nodes.size(), std::size_t(3));
    QCOMPARE(g.edges.size(), std::size_t(2));
    std::int64_t update = g.node_of_instance(0, 5);
    QVERIFY(update >= 0);
    QCOMPARE(g.nodes[static_cast<std::size_t>(update)].type, std::string("update"));
    QCOMPARE(g.edges[1].label, std::string("grid: 4096 B"));
    QVERIFY(g.width > 0 && g.height > 0);
    // dot puts the dependency below its source.
    QVERIFY(g.nodes[static_cast<std::size_t>(update)].centre.y > g.nodes[0].centre.y);
    QTemporaryDir dir;
    write(dir.filePath("bad.dot"), "digraph g {\n a -> b;\n c -> -> d;\n}\n");
    try {
      layout_task_graph(dir.filePath("bad.dot").toStdString());
      QFAIL("no error");
    } catch (const LoadError& e) {
      QVERIFY2(QString(e.what()).startsWith(dir.filePath("bad.dot") + ":3: "), e.what());
    }
  }

  // The 441 instances of the 3D FFT as tareador-tasks places them: a picture of a readable
  // shape, not a line, with no node on another.
  void theFftGraphIsPlacedNotALine() {
    TaskGraph g = layout_task_graph(kData + "/fft3d.dot");
    QCOMPARE(g.nodes.size(), std::size_t(441));
    QCOMPARE(g.edges.size(), std::size_t(1600));
    QVERIFY2(g.width <= 4 * g.height && g.height <= 4 * g.width,
             qPrintable(QString("%1 x %2").arg(g.width).arg(g.height)));
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      for (std::size_t j = 0; j < i; ++j) {
        const TaskGraph::Node &a = g.nodes[i], &b = g.nodes[j];
        QVERIFY(std::abs(a.centre.x - b.centre.x) >= (a.width + b.width) / 2 ||
                std::abs(a.centre.y - b.centre.y) >= (a.height + b.height) / 2);
      }
    std::int64_t fft = g.node_of_instance(0, 150);
    QVERIFY(fft >= 0);
    QCOMPARE(g.nodes[static_cast<std::size_t>(fft)].type, std::string("fft_rows"));
    QVERIFY(g.nodes[static_cast<std::size_t>(fft)].rounded);
  }

  // A grouped node stands for its instances; invisible edges (layout hints) are not drawn;
  // an edge's line and colour are read.
  void groupsHintsAndEdgeStyles() {
    QTemporaryDir dir;
    write(dir.filePath("g.dot"),
          "digraph g {\n"
          "  t2 [label=\"a x 4\", type=\"a\", instance=2, instances=\"2-4,9\", count=4];\n"
          "  t5 [label=\"b #5\", type=\"b\", instance=5];\n"
          "  t6 [label=\"c #6\", type=\"c\", instance=6];\n"
          "  t2 -> t5 [style=dashed, color=\"#3182bd\", creation=true];\n"
          "  t5 -> t6 [style=invis];\n"
          "  t2 -> t6 [style=dotted];\n"
          "}\n");
    TaskGraph g = layout_task_graph(dir.filePath("g.dot").toStdString());
    QCOMPARE(g.edges.size(), std::size_t(2));
    QCOMPARE(g.node_of_instance(0, 3), std::int64_t(0));
    QCOMPARE(g.node_of_instance(0, 9), std::int64_t(0));
    QCOMPARE(g.node_of_instance(0, 7), std::int64_t(-1));
    QCOMPARE(g.nodes[0].instance, std::int64_t(2));
    QCOMPARE(int(g.edges[0].line), int(TaskGraph::Line::Dashed));
    QCOMPARE(g.edges[0].colour, 0xff3182bdu);
    QCOMPARE(int(g.edges[1].line), int(TaskGraph::Line::Dotted));
  }

  void timesAreWrittenAndReadWithUnits() {
    // A ruler's labels share the unit their step suggests.
    QCOMPARE(format_time(1500000, 100000), std::string("1.5 ms"));
    QCOMPARE(format_time(1020000, 20000), std::string("1020 \u00b5s"));
    QCOMPARE(format_time(2e9, 1e9), std::string("2 s"));
    QCOMPARE(format_time(250, 50), std::string("250 ns"));
    QCOMPARE(format_instant(2501117), std::string("2.501117 ms"));
    QCOMPARE(format_duration(59673403), std::string("59.67 ms"));
    double ns;
    QVERIFY(parse_time("2.5ms", ns));
    QCOMPARE(ns, 2.5e6);
    QVERIFY(parse_time("1000", ns));
    QCOMPARE(ns, 1000.0);
    QVERIFY(!parse_time("3 parsecs", ns));
  }
};

QTEST_GUILESS_MAIN(ModelTest)
#include "model_test.moc"
