// parallel.h — independent jobs on every core (replays, rows of a timeline): runs `job(i)` for
// i in [0, count) on up to `jobs` threads (0: as many as the machine has cores). Each job writes only its own result;
// the order of the results is the order of i, whatever order they finish in, so the output is
// the serial run's. When jobs throw, the exception of the lowest i is rethrown (the one a serial
// run would have met first: every job before it was started) once every thread stopped.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tareador {

inline int default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

inline void parallel_for(std::size_t count, int jobs, const std::function<void(std::size_t)>& job) {
  std::size_t threads =
      std::min<std::size_t>(count, static_cast<std::size_t>(jobs > 0 ? jobs : default_jobs()));
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::size_t failed_at = count;
  std::mutex failure_lock;
  auto work = [&] {
    for (std::size_t i; (i = next++) < count;) {
      try {
        job(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_lock);
        if (i < failed_at) {
          failure = std::current_exception();
          failed_at = i;
        }
        next = count;  // the others stop after their current job
      }
    }
  };
  if (threads <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work);
    for (std::thread& t : pool) t.join();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace tareador
