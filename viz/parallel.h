// parallel.h — the one parallel loop of the model (rows are independent).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace tareador::view {

// Runs job(i) for every i in [0, n), on every core; returns when all are done.
template <typename Job>
void parallel_for(std::size_t n, const Job& job) {
  std::size_t workers = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), n);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < n;) job(i);
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
}

}  // namespace tareador::view
