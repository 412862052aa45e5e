#pragma once
// Which counter an event takes; private to the scheduler.
#include <algorithm>
#include <string>
#include <string_view>

#include "events/event.h"
#include "perf/open_failure.h"
#include "schedule/plan.h"

namespace topdown::schedule {

// Core PMUs ("cpu", "cpu_core", "cpu_atom", "cpu_lowpower", an Arm core's armv8_pmuv3_0 and
// the like) are the ones with a counter limit and whose groups rotate when
// there are too many. On the machine that counts, the probe's list says
// which they are (a device-tree Arm core PMU may have any name); a plan for
// another machine's CPU knows its PMUs by their names alone.
inline bool is_core_pmu(const std::string& pmu, const CounterBudget& budget) {
  if (!budget.core_pmus.empty()) {
    return std::find(budget.core_pmus.begin(), budget.core_pmus.end(), pmu) != budget.core_pmus.end();
  }
  return pmu.rfind("cpu", 0) == 0 || perf::is_arm_core_pmu(pmu, false);
}

inline bool uses_fixed_counter(const events::Encoding& event, const CounterBudget& budget) {
  return event.fixed_counter && *event.fixed_counter < budget.fixed;
}

// Intel's TOPDOWN.SLOTS, the leader the PERF_METRICS fields need.
constexpr int kSlotsFixedCounter = 3;
constexpr std::string_view kSlotsEvent = "TOPDOWN.SLOTS";
inline bool is_slots(const events::Encoding& event) { return event.fixed_counter == kSlotsFixedCounter; }

inline bool takes_no_counter(const events::Encoding& event, const CounterBudget& budget) {
  return event.topdown_metric || uses_fixed_counter(event, budget);
}

}  // namespace topdown::schedule
