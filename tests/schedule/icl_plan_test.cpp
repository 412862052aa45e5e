// Plans for the full Ice Lake tree must be countable on an Ice Lake client:
// 8 general counters per thread with SMT on or off, 4 fixed counters
// (TOPDOWN.SLOTS is fixed counter 3), many events only on counters 0-3, and,
// with the PERF_METRICS register, its fields in a group led by TOPDOWN.SLOTS.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "plan_checks.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

constexpr uint64_t kCounters0To3 = 0xF;

// (SMT on, PERF_METRICS used)
class IclPlan : public testing::ShippedModelPlan<std::tuple<bool, bool>> {
 protected:
  IclPlan() : ShippedModelPlan("icl") {}
  model::RunVariables vars() const override { return {std::get<0>(GetParam()), false, std::get<1>(GetParam())}; }
};

TEST_P(IclPlan, EveryGroupIsValidOnAnIceLake) {
  EXPECT_EQ(budget().general, 8);
  EXPECT_EQ(budget().fixed, 4);
  const Plan plan = plan_everything();
  const testing::PlanCount count = testing::check_every_group(plan, budget());
  for (const testing::GroupCount& group : count.groups) {
    if (group.pmu == "cpu") {
      EXPECT_LE(group.only_on(kCounters0To3), 4) << "group " << group.index + 1;
    }
  }
  EXPECT_EQ(count.perf_metrics_fields.size(), vars().perf_metrics ? 4u : 0u);
  testing::expect_every_node_counted(model_, vars(), plan, count);
  EXPECT_TRUE(plan.multiplexed());
}

// Level 1 with Retiring's threshold (it asks whether Heavy_Operations is
// over, which needs six more events). With the register: the four fields and
// the slots take no general counter, so 8 general events fit one group.
// Without it: 11 general events (slots, undelivered, dropped, backend-bound,
// clears and retired for level 1, five more for Heavy_Operations), so two
// groups take turns.
TEST_P(IclPlan, LevelOneFitsOneGroupOnlyWithTheRegister) {
  const bool perf_metrics = vars().perf_metrics;
  const Plan plan = plan_for(Selection{});
  EXPECT_EQ(plan.core_groups(), perf_metrics ? 1 : 2);
  EXPECT_EQ(plan.multiplexed(), !perf_metrics);
  std::set<std::string> counted;
  for (const Group& group : plan.groups) {
    for (const events::Encoding& event : group.events) counted.insert(event.name);
  }
  EXPECT_EQ(counted.count("PERF_METRICS.RETIRING"), perf_metrics ? 1u : 0u);
  EXPECT_EQ(counted.count("TOPDOWN.SLOTS_P"), perf_metrics ? 0u : 1u);
}

INSTANTIATE_TEST_SUITE_P(SmtAndPerfMetrics, IclPlan, ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<bool, bool>>& param) {
                           return std::string(std::get<0>(param.param) ? "SmtOn" : "SmtOff") +
                                  (std::get<1>(param.param) ? "PerfMetrics" : "GeneralCounters");
                         });

}  // namespace
}  // namespace topdown::schedule
