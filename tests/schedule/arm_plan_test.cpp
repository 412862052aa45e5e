// On an Arm machine the model's events open on the core PMU armv8_pmuv3_0,
// not "cpu": its groups must still fit the event counters (CPU_CYCLES on the
// cycle counter when the budget has it), and rotate when there are more
// events than counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "events/model_resolver.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

const std::filesystem::path kSource = TOPDOWN_SOURCE_DIR;

struct ArmHost {
  model::Model model;
  events::Resolver resolver;
};

// Neoverse V2 as the fake sysfs tree of one shows it.
ArmHost neoverse_v2() {
  const std::filesystem::path root = kSource / "tests/data/sysfs-neoverse-v2";
  const cpu::CpuInfo cpu = cpu::detect(root / "sys", root / "proc", cpu::CounterCheck::Skip);
  model::Model model = model::load_model(kSource / "models/neoverse-v2.model");
  events::ResolverConfig config = events::resolver_config(model, cpu);
  config.sysfs_devices = root / "sys/bus/event_source/devices";
  return {std::move(model), events::Resolver(config)};
}

// Level 1 reads seven events: CPU_CYCLES, STALL_SLOT_FRONTEND,
// STALL_SLOT_BACKEND, STALL_SLOT, OP_RETIRED, OP_SPEC and BR_MIS_PRED.
TEST(ArmPlan, NeoverseV2LevelOneRotatesOnSixCounters) {
  const ArmHost host = neoverse_v2();
  const Plan plan = make_plan(host.model, {}, Selection{}, host.resolver, CounterBudget{6, 0});
  EXPECT_EQ(plan.core_groups(), 2);
  EXPECT_TRUE(plan.multiplexed());
  for (const Group& group : plan.groups) {
    EXPECT_EQ(group.pmu, "armv8_pmuv3_0");
    EXPECT_LE(group.events.size(), 6u);
    EXPECT_EQ(group.general_counters_used(plan.budget), static_cast<int>(group.events.size()));
  }
}

bool holds(const Group& group, const std::string& event) {
  return std::any_of(group.events.begin(), group.events.end(),
                     [&](const events::Encoding& encoding) { return encoding.name == event; });
}

// Linux counts CPU_CYCLES on the cycle counter, beside the six event counters.
TEST(ArmPlan, NeoverseV2LevelOneIsOneGroupWithTheCycleCounter) {
  const ArmHost host = neoverse_v2();
  const Plan plan = make_plan(host.model, {}, Selection{}, host.resolver, CounterBudget{6, 1});
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_FALSE(plan.multiplexed());
  const Group& group = plan.groups[0];
  EXPECT_EQ(group.events.size(), 7u);
  EXPECT_EQ(group.general_counters_used(plan.budget), 6);
  ASSERT_TRUE(holds(group, "CPU_CYCLES"));
  for (const events::Encoding& event : group.events) {
    EXPECT_EQ(event.fixed_counter == 0, event.name == "CPU_CYCLES") << event.name;
  }
  const std::string described = describe(plan);
  EXPECT_NE(described.find("on 6 general counters + 1 fixed (no multiplexing)"), std::string::npos) << described;
  EXPECT_NE(described.find(" CPU_CYCLES(fixed)"), std::string::npos) << described;
}

// Every level-1 node of V2 divides by CPU_CYCLES: each rotating group counts
// it on its own cycle counter, taking none of the three event counters.
TEST(ArmPlan, EveryRotatingGroupCarriesTheCycles) {
  const ArmHost host = neoverse_v2();
  const Plan plan = make_plan(host.model, {}, Selection{}, host.resolver, CounterBudget{3, 1});
  ASSERT_GE(plan.core_groups(), 2);
  for (const Group& group : plan.groups) {
    EXPECT_TRUE(holds(group, "CPU_CYCLES")) << describe(plan);
    EXPECT_LE(group.general_counters_used(plan.budget), 3);
    EXPECT_EQ(group.general_counters_used(plan.budget), static_cast<int>(group.events.size()) - 1);
  }
}

TEST(ArmPlan, NeoverseV2LevelOneIsOneGroupOnSevenCounters) {
  const ArmHost host = neoverse_v2();
  const Plan plan = make_plan(host.model, {}, Selection{}, host.resolver, CounterBudget{7, 0});
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_EQ(plan.groups[0].events.size(), 7u);
  EXPECT_FALSE(plan.multiplexed());
}

}  // namespace
}  // namespace topdown::schedule
