#pragma once
// The session's two readers of one counter group, and the hardware
// instructions they use. rdpmc is x86's: elsewhere (arm64, whose kernels
// keep user access to the counters off by default) counters are read by
// read().
#include <cstdint>
#include <memory>

#include "perf/group.h"
#include "region/counter_reader.h"
#include "region/perf_metrics.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TOPDOWN_RDPMC 1
#endif

namespace topdown::region {

// read() of the group. Members after the leader are multiplied by
// `member_scale` (0xff for PERF_METRICS, whose rdpmc reader counts slots x 0xff).
std::unique_ptr<CounterReader> make_group_read_reader(std::shared_ptr<perf::Group> group, std::size_t count,
                                                      uint64_t member_scale);

#ifdef TOPDOWN_RDPMC
inline uint64_t rdpmc(uint32_t counter) {
  uint32_t low = 0;
  uint32_t high = 0;
  asm volatile("rdpmc" : "=a"(low), "=d"(high) : "c"(counter));
  return (static_cast<uint64_t>(high) << 32) | low;
}

inline uint64_t read_tsc() { return __rdtsc(); }

// rdpmc of every event through its mmap page; read() of the group for a
// reading where an event is off the PMU (the model path: its reads do not
// reset counters). The group's pages must be mapped.
std::unique_ptr<CounterReader> make_rdpmc_reader(std::shared_ptr<perf::Group> group, std::size_t count);

// rdpmc of SLOTS and PERF_METRICS, never read(): the kernel resets both on
// every read of the group. Resets with PERF_EVENT_IOC_RESET on `schedule`;
// a reading that finds the kernel rescheduled the counters (which restarts
// the fields) starts a new epoch. The group's pages must be mapped.
std::unique_ptr<CounterReader> make_metrics_rdpmc_reader(std::shared_ptr<perf::Group> group, int level,
                                                         metrics::ResetSchedule schedule);

// Whether rdpmc can read the first `events` events of this mapped group now:
// their pages allow it and they are on a counter.
bool rdpmc_usable(const perf::Group& group, std::size_t events);
#endif

}  // namespace topdown::region
