// Plans for the full Skylake tree must be countable on a Skylake: 4 general
// counters per thread with SMT on, 8 with it off, 3 fixed counters, the
// events that only counters 0-3 take, and the uncore arbiter's two counters
// of which only counter 0 counts occupancy.
#include <gtest/gtest.h>

#include <string>

#include "plan_checks.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

class SkylakePlan : public testing::ShippedModelPlan<bool> {
 protected:
  SkylakePlan() : ShippedModelPlan("skl") {}
  model::RunVariables vars() const override { return {GetParam(), false}; }
};

TEST_P(SkylakePlan, EveryGroupIsValidOnASkylake) {
  const bool smt = GetParam();
  EXPECT_EQ(budget().general, smt ? 4 : 8);
  EXPECT_EQ(budget().fixed, 3);
  const Plan plan = plan_everything();
  const testing::PlanCount count = testing::check_every_group(plan, budget());
  int restricted_events = 0;
  for (const testing::GroupCount& group : count.groups) {
    SCOPED_TRACE("group " + std::to_string(group.index + 1));
    if (group.pmu == "cpu") {
      restricted_events += group.only_on(0xF);
      EXPECT_LE(group.only_on(0xF), 4);  // PEBS-capable events only use counters 0-3
    }
    if (group.pmu == "uncore_arb") {
      EXPECT_LE(group.only_on(0x1), 1);
    }
  }
  EXPECT_GE(restricted_events, 15);  // MEM_LOAD_RETIRED.*, MEM_INST_RETIRED.*, FRONTEND_RETIRED.*, ...
  testing::expect_every_node_counted(model_, vars(), plan, count);
  EXPECT_TRUE(plan.multiplexed());
  EXPECT_GT(plan.core_groups(), smt ? 20 : 10);
}

// Level 1 needs UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS,
// IDQ_UOPS_NOT_DELIVERED.CORE and INT_MISC.RECOVERY_CYCLES(_ANY) on general
// counters, and Retiring's threshold asks whether Heavy_Operations is over
// (UOPS_RETIRED.MACRO_FUSED): five, so with SMT on (four counters) the groups
// rotate, without SMT they fit one group.
TEST_P(SkylakePlan, LevelOneFitsOneGroupWithoutSmt) {
  const bool smt = GetParam();
  const Plan plan = plan_for(Selection{});
  EXPECT_EQ(plan.core_groups(), smt ? 2 : 1);
  EXPECT_EQ(plan.groups.size(), static_cast<size_t>(plan.core_groups()));
  EXPECT_EQ(plan.multiplexed(), smt);
}

INSTANTIATE_TEST_SUITE_P(Smt, SkylakePlan, ::testing::Bool(), testing::smt_on_or_off);

}  // namespace
}  // namespace topdown::schedule
