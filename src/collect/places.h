#pragma once
// The counts of each placement (a CPU or a thread) and their sum: the pure
// part of reading counters, kept apart so that it can be tested without a PMU.
#include <vector>

#include "counts/counts.h"

namespace topdown::collect {

// The sum over `places` the way perf adds CPUs or threads: each place scaled
// by its own enabled and running times (counts::add_scaled), since with
// multiplexing each was counted a different share of its time. One place is
// its own sum, unchanged.
counts::Sample sum_of_places(const std::vector<counts::Place>& places);

// What each place advanced from `before` to `now`: value, time_enabled and
// time_running deltas of each event. `before` is an earlier read, or empty
// for the start of counting; a place is matched with its own by cgroup and
// label, and one that `before` lacks advanced by all its counts.
std::vector<counts::Place> deltas_since(const std::vector<counts::Place>& now,
                                        const std::vector<counts::Place>& before);

// Sets the wall time each place's counts cover.
void set_duration(std::vector<counts::Place>& places, double duration_s);

}  // namespace topdown::collect
