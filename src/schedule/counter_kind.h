#pragma once
// Which counter an event takes; private to the scheduler.
#include <string>

#include "events/event.h"
#include "schedule/plan.h"

namespace topdown::schedule {

// Core PMUs ("cpu", "cpu_core", "cpu_atom") are the ones with a counter limit
// and whose groups rotate when there are too many.
inline bool is_core_pmu(const std::string& pmu) { return pmu.rfind("cpu", 0) == 0; }

inline bool uses_fixed_counter(const events::Encoding& event, const CounterBudget& budget) {
  return event.fixed_counter && *event.fixed_counter < budget.fixed;
}

// Intel's TOPDOWN.SLOTS, the leader the PERF_METRICS fields need.
constexpr int kSlotsFixedCounter = 3;
inline bool is_slots(const events::Encoding& event) { return event.fixed_counter == kSlotsFixedCounter; }

inline bool takes_no_counter(const events::Encoding& event, const CounterBudget& budget) {
  return event.topdown_metric || uses_fixed_counter(event, budget);
}

}  // namespace topdown::schedule
