// Plans for the full Sapphire Rapids tree must be countable on a Sapphire
// Rapids: 8 general counters per thread with SMT on or off, 4 fixed counters
// (TOPDOWN.SLOTS is fixed counter 3), many events only on counters 0-3 (a
// few only on counter 0), and the eight PERF_METRICS fields in one group led
// by TOPDOWN.SLOTS.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "plan_checks.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

constexpr uint64_t kCounters0To3 = 0xF;
constexpr uint64_t kCounter0 = 0x1;

const std::set<std::string> kPerfMetricsFields = {"PERF_METRICS.RETIRING",         "PERF_METRICS.BAD_SPECULATION",
                                                  "PERF_METRICS.FRONTEND_BOUND",   "PERF_METRICS.BACKEND_BOUND",
                                                  "PERF_METRICS.HEAVY_OPERATIONS", "PERF_METRICS.BRANCH_MISPREDICTS",
                                                  "PERF_METRICS.FETCH_LATENCY",    "PERF_METRICS.MEMORY_BOUND"};

// The parameter: SMT on.
class SprPlan : public testing::ShippedModelPlan<bool> {
 protected:
  SprPlan() : ShippedModelPlan("spr@5.01") {}
  model::RunVariables vars() const override { return {GetParam(), false, true}; }
};

TEST_P(SprPlan, EveryGroupIsValidOnASapphireRapids) {
  EXPECT_EQ(budget().general, 8);
  EXPECT_EQ(budget().fixed, 4);
  const Plan plan = plan_everything();
  const testing::PlanCount count = testing::check_every_group(plan, budget());
  for (const testing::GroupCount& group : count.groups) {
    SCOPED_TRACE("group " + std::to_string(group.index + 1));
    if (group.pmu == "cpu") {
      EXPECT_LE(group.only_on(kCounters0To3) + group.only_on(kCounter0), 4);
      EXPECT_LE(group.only_on(kCounter0), 1);
    }
  }
  // Levels 1 and 2 read all eight fields, together, from one reading of the register.
  std::set<std::string> fields;
  std::set<int> field_groups;
  for (const auto& [field, group] : count.perf_metrics_fields) {
    fields.insert(field);
    field_groups.insert(group);
  }
  EXPECT_EQ(fields, kPerfMetricsFields);
  EXPECT_EQ(field_groups.size(), 1u);
  testing::expect_every_node_counted(model_, vars(), plan, count);
  EXPECT_TRUE(plan.multiplexed());
}

// Level 1 with Retiring's threshold (whether Heavy_Operations is over): five
// PERF_METRICS fields and TOPDOWN.SLOTS take no general counter and
// Frontend_Bound's dropped uops take one, so level 1 is one group that never
// rotates, whatever the SMT setting; Info metrics fill its free counters.
TEST_P(SprPlan, LevelOneIsOneGroupLedByTheSlots) {
  const Plan plan = plan_for(Selection{});
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_EQ(plan.core_groups(), 1);
  EXPECT_FALSE(plan.multiplexed());
  const Group& group = plan.groups.front();
  EXPECT_EQ(group.events.front().name, "TOPDOWN.SLOTS");
  std::set<std::string> counted;
  for (const events::Encoding& event : group.events) counted.insert(event.name);
  for (const char* event : {"PERF_METRICS.FRONTEND_BOUND", "PERF_METRICS.BAD_SPECULATION", "PERF_METRICS.RETIRING",
                            "PERF_METRICS.BACKEND_BOUND", "PERF_METRICS.HEAVY_OPERATIONS", "INT_MISC.UOP_DROPPING"}) {
    EXPECT_EQ(counted.count(event), 1u) << event;
  }
  // The level-2 fields are not needed yet.
  EXPECT_EQ(counted.count("PERF_METRICS.MEMORY_BOUND"), 0u);
  EXPECT_FALSE(plan.left_out.empty());
}

INSTANTIATE_TEST_SUITE_P(Smt, SprPlan, ::testing::Bool(), testing::smt_on_or_off);

}  // namespace
}  // namespace topdown::schedule
