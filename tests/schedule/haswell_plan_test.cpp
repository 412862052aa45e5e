// Plans for the full Haswell tree must be countable on a Haswell: 4 general
// counters per thread with SMT on, 8 with it off, 3 fixed counters, and the
// events that only some counters take (L1D_PEND_MISS.PENDING on counter 2).
#include <gtest/gtest.h>

#include "plan_checks.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

class HaswellPlan : public testing::ShippedModelPlan<bool> {
 protected:
  HaswellPlan() : ShippedModelPlan("hsw") {}
  model::RunVariables vars() const override { return {GetParam(), false}; }
};

TEST_P(HaswellPlan, EveryGroupIsValidOnAHaswell) {
  const bool smt = GetParam();
  EXPECT_EQ(budget().general, smt ? 4 : 8);
  EXPECT_EQ(budget().fixed, 3);
  const Plan plan = plan_everything();
  const testing::PlanCount count = testing::check_every_group(plan, budget());
  for (const testing::GroupCount& group : count.groups) {
    if (group.pmu == "cpu") {
      EXPECT_LE(group.only_on(0b100), 1) << "group " << group.index + 1;
    }
  }
  testing::expect_every_node_counted(model_, vars(), plan, count);
  EXPECT_TRUE(plan.multiplexed());
  EXPECT_GT(plan.core_groups(), smt ? 15 : 8);
}

// Level 1 needs four general events, but Retiring's threshold asks whether
// Heavy_Operations is over, which needs IDQ.MS_UOPS: five, so with SMT on
// (four counters) the groups rotate. Info metrics never add a group.
TEST_P(HaswellPlan, LevelOneFitsOneGroupWithoutSmt) {
  const bool smt = GetParam();
  const Plan plan = plan_for(Selection{});
  EXPECT_EQ(plan.core_groups(), smt ? 2 : 1);
  EXPECT_EQ(plan.groups.size(), static_cast<size_t>(plan.core_groups()));
  EXPECT_EQ(plan.multiplexed(), smt);
  EXPECT_FALSE(plan.left_out.empty());
}

INSTANTIATE_TEST_SUITE_P(Smt, HaswellPlan, ::testing::Bool(), testing::smt_on_or_off);

}  // namespace
}  // namespace topdown::schedule
