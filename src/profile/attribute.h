#pragma once
// Per-function counts of a sampled run: each group sample's deltas charged
// to the function at its ip, in the same keys as `stat` counts them.
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
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
  // report --callers: the call path into the function, outermost caller
  // first, the function last; empty otherwise.
  std::vector<std::string> callers;
};

// What a sample can be charged to: a function, or a call path into one.
struct FunctionName {
  std::string name;
  std::string module;
  std::vector<std::string> callers;  // Function::callers
};

// Functions numbered in the order first named.
class FunctionNames {
 public:
  uint32_t index(const std::string& name, const std::string& module);
  const std::vector<FunctionName>& all() const { return names_; }

 private:
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<FunctionName> names_;
};

struct Attribution {
  std::string clock_event;          // what shares are measured in; empty when no group holds one
  Function whole;                   // every sample
  std::vector<Function> functions;  // by share, largest first (then by name)
};

// The event of the groups whose deltas are the run's clockticks, the first
// found of: CPU_CLK_UNHALTED.THREAD, CPU_CLK_UNHALTED.THREAD_P (Intel's
// unhalted core cycles), CPU_CLK_UNHALTED.CORE (the E-cores'), ls_not_halted_cyc (AMD), CPU_CYCLES (Arm),
// cpu-clock, task-clock (the software model); else the first group's leader.
// Empty without groups.
std::string clock_event(const recording::Header& header);

// Where each of the header's groups holds `clock` (clock_event()), -1 where none.
std::vector<int> clock_slots(const recording::Header& header, const std::string& clock);

// Charges every sample of `recording` to the function its symbol names
// (samples without one are "[unknown]": name them first, see name_samples).
// A group that says nothing of its times is taken as counted all the time.
Attribution attribute(const recording::Recording& recording);

// Charges every sample to each of the `names` that `charged` lists for it
// (indices, each at most once): the sum of every sample is `whole` however
// many names a sample feeds.
Attribution attribute_to(const recording::Recording& recording, const std::vector<FunctionName>& names,
                         const std::function<void(const recording::Sample&, std::vector<uint32_t>&)>& charged);

// As attribute_to, with one function per name in the order of `names`, none
// left out (a name no sample fed has 0 samples).
Attribution attribute_in_order(const recording::Recording& recording, const std::vector<FunctionName>& names,
                               const std::function<void(const recording::Sample&, std::vector<uint32_t>&)>& charged);

}  // namespace topdown::profile
