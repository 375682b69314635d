// The times Dimemas 5.5 predicts for the shared fixtures (tests/fixtures/dimemas/
// expected_times.txt), reproduced to a nanosecond.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_util.h"

namespace tareador {
namespace {

using testing::fixture;

TEST(DimemasFixtures, ReplayReproducesEveryExpectedTime) {
  std::ifstream expected(fixture("dimemas/expected_times.txt"));
  ASSERT_TRUE(expected) << "missing expected_times.txt";
  std::string line;
  int cases = 0;
  while (std::getline(expected, line)) {
    std::istringstream fields(line);
    std::string trace_name, config_name;
    double seconds = 0;
    if (!(fields >> trace_name >> config_name >> seconds)) continue;
    auto t = trace::open_dimemas(fixture("dimemas/" + trace_name + ".dim"));
    replay::Machine m = replay::load_machine(fixture("dimemas/" + config_name + ".cfg"));
    replay::Result r = replay::simulate(*t, m);
    EXPECT_NEAR(r.total_time, seconds, 1e-9) << trace_name << " on " << config_name;
    ++cases;
  }
  EXPECT_EQ(cases, 10);
}

}  // namespace
}  // namespace tareador
