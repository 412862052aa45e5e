#include <vector>

#include "schedule/counter_kind.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

// Augmenting-path bipartite matching of events to general counters; groups
// hold at most a handful of events, so this is cheap.
bool assign(const std::vector<const events::Encoding*>& events, size_t index, int counters, std::vector<bool>& taken) {
  if (index == events.size()) return true;
  for (int counter = 0; counter < counters && counter < 64; ++counter) {
    if (taken[counter] || !(events[index]->counter_mask >> counter & 1u)) continue;
    taken[counter] = true;
    if (assign(events, index + 1, counters, taken)) return true;
    taken[counter] = false;
  }
  return false;
}

// A Haswell server CBo or Skylake server CHA has one filter register, which
// perf's config1 sets: the events of one group must agree on it, or the
// kernel never schedules the group. Events without a filter leave it alone.
bool one_box_filter(const std::vector<events::Encoding>& group) {
  const events::Encoding* filtered = nullptr;
  for (const auto& event : group) {
    if (event.config1 == 0) continue;
    if (filtered && filtered->config1 != event.config1) return false;
    filtered = &event;
  }
  return true;
}

}  // namespace

int Group::general_counters_used(const CounterBudget& budget) const {
  if (!is_core_pmu(pmu, budget)) return 0;
  int used = 0;
  for (const auto& event : events) used += takes_no_counter(event, budget) ? 0 : 1;
  return used;
}

bool fits(const std::vector<events::Encoding>& group, const CounterBudget& budget) {
  if (group.empty()) return true;
  if (!is_core_pmu(group.front().pmu, budget)) {
    // Uncore, msr and software PMUs: no shared limit, but the counters an
    // event names (Haswell's arbiter occupancy only on counter 0) and the
    // box's filter register still bind.
    if (!one_box_filter(group)) return false;
    std::vector<const events::Encoding*> all;
    for (const auto& event : group) all.push_back(&event);
    std::vector<bool> taken(64, false);
    return assign(all, 0, 64, taken);
  }
  std::vector<bool> fixed_taken(static_cast<size_t>(std::max(budget.fixed, 0)), false);
  std::vector<const events::Encoding*> general;
  bool needs_slots = false;
  for (const auto& event : group) {
    if (event.topdown_metric) {
      needs_slots = true;
    } else if (uses_fixed_counter(event, budget)) {
      auto index = static_cast<size_t>(*event.fixed_counter);
      if (fixed_taken[index]) return false;
      fixed_taken[index] = true;
    } else {
      general.push_back(&event);
    }
  }
  if (needs_slots && !(kSlotsFixedCounter < budget.fixed && fixed_taken[kSlotsFixedCounter])) return false;
  if (static_cast<int>(general.size()) > budget.general) return false;
  std::vector<bool> taken(static_cast<size_t>(std::max(budget.general, 0)), false);
  return assign(general, 0, budget.general, taken);
}

}  // namespace topdown::schedule
