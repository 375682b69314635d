// The times Dimemas 5.5 predicts for the shared fixtures (tests/fixtures/dimemas/ and
// tests/fixtures/tareador-original/), reproduced to a nanosecond.
#include <gtest/gtest.h>

#include <deque>
#include <fstream>
#include <map>
#include <sstream>

#include "test_util.h"

namespace tareador {
namespace {

using testing::fixture;

// The lines "NAME CONFIG SECONDS" (or "NAME SECONDS") of an expected-times file, comments left
// out.
std::vector<std::vector<std::string>> expected_lines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "missing " << path;
  std::vector<std::vector<std::string>> lines;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    lines.push_back(words);
  }
  return lines;
}

TEST(DimemasFixtures, ReplayReproducesEveryExpectedTime) {
  int cases = 0;
  for (const auto& words : expected_lines(fixture("dimemas/expected_times.txt"))) {
    ASSERT_EQ(words.size(), 3u);
    auto t = trace::open_dimemas(fixture("dimemas/" + words[0] + ".dim"));
    replay::Machine m = replay::load_machine(fixture("dimemas/" + words[1] + ".cfg"));
    replay::Result r = replay::simulate(*t, m);
    EXPECT_NEAR(r.total_time, std::stod(words[2]), 1e-9) << words[0] << " on " << words[1];
    ++cases;
  }
  EXPECT_EQ(cases, 30);
}

// ---- The original Tareador's trace of a 3D FFT (tareador-original/README.md) ---------------

const char* const kFft = "tareador-original/3dfft_tareador.dim";

TEST(TareadorOriginal, ReplayReproducesEveryExpectedTime) {
  auto t = trace::open_dimemas(fixture(kFft));
  int cases = 0;
  for (const auto& words : expected_lines(fixture("tareador-original/expected_times.txt"))) {
    ASSERT_EQ(words.size(), 3u);
    // MN_16cores.cfg is in the SDDFA 2.5 format; the others in Dimemas 5.5's.
    replay::Machine m = replay::load_machine(fixture("tareador-original/" + words[1] + ".cfg"));
    EXPECT_NEAR(replay::simulate(*t, m).total_time, std::stod(words[2]), 1e-9) << words[1];
    ++cases;
  }
  EXPECT_EQ(cases, 3);
}

// The bursts of every thread of `t`, added.
double work(const trace::Trace& t) {
  double sum = 0;
  trace::Record r;
  for (int thread = 0; thread < t.header().threads[0]; ++thread)
    for (auto s = t.open(0, thread); s->next(r);)
      if (r.type == trace::RecordType::Burst) sum += r.amount;
  return sum;
}

// The longest chain of bursts of `t` (a task whose threads send immediately and receive
// blocking): every thread runs at once on a core of its own; a receive waits for its send,
// matched per channel in order; messages take no time.
double critical_path(const trace::Trace& t) {
  struct Thread {
    std::unique_ptr<trace::RecordStream> records;
    trace::Record next;
    bool has_next = false, done = false;
    double clock = 0;
  };
  std::vector<Thread> threads(static_cast<std::size_t>(t.header().threads[0]));
  std::map<trace::Channel, std::deque<double>> sent;  // send times not yet received
  for (std::size_t i = 0; i < threads.size(); ++i)
    threads[i].records = t.open(0, static_cast<int>(i));
  double end = 0;
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t i = 0; i < threads.size(); ++i) {
      Thread& th = threads[i];
      while (!th.done) {
        if (!th.has_next && !(th.has_next = th.records->next(th.next))) {
          th.done = true;
          end = std::max(end, th.clock);
          break;
        }
        const trace::Record& r = th.next;
        trace::Channel channel = trace::channel_of(r, 0, static_cast<int>(i));
        if (r.type == trace::RecordType::Recv) {
          std::deque<double>& times = sent[channel];
          if (times.empty()) break;  // its send has not been reached yet
          th.clock = std::max(th.clock, times.front());
          times.pop_front();
        } else if (r.type == trace::RecordType::Send) {
          EXPECT_TRUE(r.immediate());
          sent[channel].push_back(th.clock);
        } else if (r.type == trace::RecordType::Burst) {
          th.clock += r.amount;
        }
        th.has_next = false;
        progress = true;
      }
    }
  }
  for (const Thread& th : threads) EXPECT_TRUE(th.done) << "a receive without its send";
  return end;
}

TEST(TareadorOriginal, EveryCoreCountAsDimemasAndWithinTheBoundsOfGreedyScheduling) {
  // On one node of p cores (ratio 1, messages free): one core runs all the work W, as many cores
  // as threads run the critical path C, and in between a scheduler that never leaves a core idle
  // while a thread is ready (Dimemas' FIFO one) ends within Graham's bounds
  // max(W / p, C) <= T <= (W - C) / p + C.
  auto t = trace::open_dimemas(fixture(kFft));
  const double W = work(*t), C = critical_path(*t);
  EXPECT_EQ(W, 639780);
  EXPECT_EQ(C, 27971);
  replay::Machine m = replay::load_machine(fixture("tareador-original/cfg_1n1c.cfg"));
  int cases = 0;
  for (const auto& words : expected_lines(fixture("tareador-original/expected_cores.txt"))) {
    ASSERT_EQ(words.size(), 2u);
    int p = std::stoi(words[0]);
    replay::apply_override(m, "cores=" + words[0]);
    double time = replay::simulate(*t, m).total_time;
    EXPECT_NEAR(time, std::stod(words[1]), 1e-9) << p << " cores";
    if (p == 1) {
      EXPECT_EQ(time, W);
    }
    if (p >= t->header().threads[0]) {
      EXPECT_EQ(time, C);
    }
    EXPECT_GE(time, std::max(W / p, C)) << p << " cores";
    EXPECT_LE(time, (W - C) / p + C) << p << " cores";
    ++cases;
  }
  EXPECT_EQ(cases, 8);
}

}  // namespace
}  // namespace tareador
