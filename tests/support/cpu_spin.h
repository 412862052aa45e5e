// Busy loops measured in this thread's CPU time, not wall time: on a loaded
// machine a thread runs for only part of each wall millisecond, and the
// clocks tests read (task-clock, cpu-clock, their samples) advance only while
// it runs.
#pragma once

#include <time.h>

#include <chrono>
#include <cstdint>

namespace topdown::testing {

inline std::chrono::nanoseconds thread_cpu_time() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

inline void spin_for_cpu(std::chrono::nanoseconds time) {
  const auto end = thread_cpu_time() + time;
  volatile uint64_t sink = 0;
  while (thread_cpu_time() < end) sink = sink + 1;
}

}  // namespace topdown::testing
