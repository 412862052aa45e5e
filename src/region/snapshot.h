#pragma once
// One reading of a session's counters, and what a region adds up from pairs
// of readings.
#include <array>
#include <cstddef>
#include <cstdint>

namespace topdown::region {

// Enough for a PERF_METRICS group (slots and eight fields) or a group on every
// counter a core has.
constexpr std::size_t kMaxValues = 16;

struct Snapshot {
  std::array<uint64_t, kMaxValues> values{};  // the group's counters, leader first
  uint64_t time_enabled = 0;                  // ns, of the leader
  uint64_t time_running = 0;
  // Readings of different epochs cannot be subtracted: the counters restarted
  // in between at a moment the reader does not know.
  uint64_t epoch = 0;
  bool valid = false;  // false: the counters could not be read

  // Multiplies the `count` values after the leader by `scale`: PERF_METRICS
  // fields read() as slots, the rdpmc reader counts them in slots x 0xff.
  void scale_members(std::size_t count, uint64_t scale) {
    for (std::size_t i = 1; i < count; ++i) values[i] *= scale;
  }
};

struct Totals {
  // Sums of end - begin per counter. Signed: a PERF_METRICS field of a short
  // region can step down by its 8-bit rounding.
  std::array<int64_t, kMaxValues> deltas{};
  uint64_t time_enabled = 0;
  uint64_t time_running = 0;
  uint64_t calls = 0;
  uint64_t dropped_calls = 0;

  // Adds one begin/end pair of `count` counters. Counters are subtracted
  // modulo 2^64, so a counter that wrapped still gives its true delta.
  void add(const Snapshot& begin, const Snapshot& end, std::size_t count) {
    if (!begin.valid || !end.valid || begin.epoch != end.epoch) {
      ++dropped_calls;
      return;
    }
    for (std::size_t i = 0; i < count; ++i) deltas[i] += static_cast<int64_t>(end.values[i] - begin.values[i]);
    time_enabled += end.time_enabled - begin.time_enabled;
    time_running += end.time_running - begin.time_running;
    ++calls;
  }
};

}  // namespace topdown::region
