#pragma once
// What the plan tests of the shipped Intel models share: the model with the
// resolver that encodes its events without a PMU, and the checks every plan
// must pass whatever the CPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "events/model_resolver.h"
#include "model/dependencies.h"
#include "schedule/plan.h"

namespace topdown::testing {

// A fixture over a shipped model; the parameter sets the run's variables.
template <typename Param>
class ShippedModelPlan : public ::testing::TestWithParam<Param> {
 protected:
  explicit ShippedModelPlan(const std::string& name)
      : model_(model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / (name + ".model"))),
        resolver_(events::offline_resolver_config(model_)) {}

  virtual model::RunVariables vars() const = 0;

  schedule::CounterBudget budget() const {
    return {static_cast<int>(model_.counters.general_for(vars().smt_enabled)), static_cast<int>(model_.counters.fixed)};
  }

  schedule::Plan plan_for(const schedule::Selection& selection) const {
    return schedule::make_plan(model_, vars(), selection, resolver_, budget());
  }

  // Every level and every Info metric.
  schedule::Plan plan_everything() const {
    schedule::Selection selection;
    selection.max_level = 6;
    selection.all_info = true;
    return plan_for(selection);
  }

  model::Model model_;
  events::Resolver resolver_;
};

inline std::string smt_on_or_off(const ::testing::TestParamInfo<bool>& smt) { return smt.param ? "On" : "Off"; }

struct GroupCount {
  size_t index = 0;  // in plan.groups
  std::string pmu;
  int general = 0;                              // events on general counters
  std::map<uint64_t, int> events_per_counters;  // events by the counters they may use (counter_mask)

  int only_on(uint64_t counter_mask) const {
    const auto found = events_per_counters.find(counter_mask);
    return found == events_per_counters.end() ? 0 : found->second;
  }
};

struct PlanCount {
  std::map<std::string, int> group_of;  // each event's group
  std::vector<GroupCount> groups;
  std::vector<std::pair<std::string, int>> perf_metrics_fields;  // the register's fields and their groups
};

// Checks what every group must be, whatever the CPU: it fits the budget, its
// events are on its PMU and no two on one fixed counter, its general events
// fit the general counters of the core PMU or the two of the uncore
// arbiter, and the PERF_METRICS fields are in a group led by TOPDOWN.SLOTS.
// Returns what the groups count, for the checks of one CPU.
inline PlanCount check_every_group(const schedule::Plan& plan, const schedule::CounterBudget& budget) {
  PlanCount count;
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const schedule::Group& group = plan.groups[i];
    SCOPED_TRACE("group " + std::to_string(i + 1));
    EXPECT_TRUE(schedule::fits(group.events, budget));
    GroupCount& tally = count.groups.emplace_back();
    tally.index = i;
    tally.pmu = group.pmu;
    std::set<int> fixed_used;
    for (const events::Encoding& event : group.events) {
      EXPECT_EQ(event.pmu, group.pmu);
      if (event.fixed_counter) {
        EXPECT_TRUE(fixed_used.insert(*event.fixed_counter).second)
            << "two events on fixed counter " << *event.fixed_counter;
      } else if (!event.topdown_metric) {
        ++tally.general;
      }
      ++tally.events_per_counters[event.counter_mask];
      if (event.topdown_metric) {
        count.perf_metrics_fields.emplace_back(event.name, static_cast<int>(i));
        EXPECT_EQ(group.events.front().name, "TOPDOWN.SLOTS") << event.name << " is not in a group led by the slots";
      }
      count.group_of[event.name] = static_cast<int>(i);
    }
    if (group.pmu == "cpu") {
      EXPECT_LE(tally.general, budget.general);
    }
    if (group.pmu == "uncore_arb") {
      EXPECT_LE(group.events.size(), 2u);  // the arbiter has two counters
    }
  }
  return count;
}

// Every event of every node and Info metric is counted.
inline void expect_every_node_counted(const model::Model& model, const model::RunVariables& vars,
                                      const schedule::Plan& plan, const PlanCount& count) {
  const model::Dependencies deps(model, vars, plan.identities);
  EXPECT_EQ(plan.nodes.size(), model.nodes.size());
  for (const std::string& node : plan.nodes) {
    for (const std::string& event : deps.events_of(node)) {
      EXPECT_EQ(count.group_of.count(event), 1u) << node << " needs " << event;
    }
  }
}

}  // namespace topdown::testing
