#pragma once
// Per-function counts of a sampled run: each group sample's deltas charged
// to the function at its ip, in the same keys as `stat` counts them.
#include <cstdint>
#include <string>
#include <vector>

#include "counts/counts.h"
#include "recording/recording.h"

namespace topdown::profile {

// A function and what its samples counted.
struct Function {
  std::string name;    // "[whole program]" for the sum of every sample
  std::string module;  // the executable or library, "[kernel.kallsyms]", "[unknown]"
  // Summed deltas by counts::EventKey (a group's copies under their group),
  // each with its group's enabled and running times so that a rotating
  // group's counts are scaled as stat scales them.
  counts::Sample counts;
  std::vector<uint64_t> group_samples;  // samples of each of Header::groups
  uint64_t samples = 0;                 // of every group
  double clock = 0;                     // deltas of the clock event
  double share = 0;                     // clock over the whole run's clock (0 without a clock event)
};

struct Attribution {
  std::string clock_event;          // what shares are measured in; empty when no group holds one
  Function whole;                   // every sample
  std::vector<Function> functions;  // by share, largest first (then by name)
};

// The event of the groups whose deltas are the run's clockticks, the first
// found of: CPU_CLK_UNHALTED.THREAD, CPU_CLK_UNHALTED.THREAD_P (Intel's
// unhalted core cycles), ls_not_halted_cyc (AMD), CPU_CYCLES (Arm),
// cpu-clock, task-clock (the software model); else the first group's leader.
// Empty without groups.
std::string clock_event(const recording::Header& header);

// Charges every sample of `recording` to the function its symbol names
// (samples without one are "[unknown]": name them first, see name_samples).
// A group that says nothing of its times is taken as counted all the time.
Attribution attribute(const recording::Recording& recording);

}  // namespace topdown::profile
