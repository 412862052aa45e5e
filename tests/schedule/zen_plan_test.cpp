#include <gtest/gtest.h>

#include "events/model_resolver.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

struct Zen {
  model::Model model;
  events::Resolver resolver;
};

Zen load(const std::string& name) {
  auto dir = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
  model::Model m = model::load_model(dir / (name + ".model"));
  cpu::CpuInfo amd;
  amd.id.vendor = cpu::Vendor::Amd;
  events::Resolver resolver(events::resolver_config(m, amd));
  return {std::move(m), std::move(resolver)};
}

// Our machines: 6 counters reported, 5 count.
constexpr CounterBudget kZen5Vm{5, 0};

TEST(ZenPlan, LevelOneFitsOneGroupOfFiveWithoutSmt) {
  Zen zen = load("zen5");
  Plan plan = make_plan(zen.model, {}, Selection{}, zen.resolver, kZen5Vm);
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_LE(plan.groups[0].events.size(), 5u);
}

TEST(ZenPlan, LevelOneFitsOneGroupOfFiveWithSmtThroughTheIdentity) {
  Zen zen = load("zen5");
  model::RunVariables smt;
  smt.smt_enabled = true;
  Plan plan = make_plan(zen.model, smt, Selection{}, zen.resolver, kZen5Vm);
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_EQ(plan.groups[0].events.size(), 5u);
  EXPECT_EQ(plan.identities.count("Backend_Bound"), 1u);
}

TEST(ZenPlan, LevelTwoNeverExceedsTheCountersThatCount) {
  for (const char* name : {"zen4", "zen5"}) {
    Zen zen = load(name);
    Selection selection;
    selection.max_level = 2;
    Plan plan = make_plan(zen.model, {}, selection, zen.resolver, kZen5Vm);
    EXPECT_GE(plan.groups.size(), 2u) << name;
    for (const auto& group : plan.groups) EXPECT_LE(group.events.size(), 5u) << name;
  }
}

}  // namespace
}  // namespace topdown::schedule
