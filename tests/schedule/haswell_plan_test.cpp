// Plans for the full Haswell tree must be countable on a Haswell: 4 general
// counters per thread with SMT on, 8 with it off, 3 fixed counters, and the
// events that only some counters take (L1D_PEND_MISS.PENDING on counter 2).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "events/model_resolver.h"
#include "model/dependencies.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

class HaswellPlan : public ::testing::TestWithParam<bool> {
 protected:
  HaswellPlan()
      : model_(model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "hsw.model")),
        resolver_(events::offline_resolver_config(model_)) {}

  CounterBudget budget() const {
    return {static_cast<int>(model_.counters.general_for(GetParam())), static_cast<int>(model_.counters.fixed)};
  }

  model::Model model_;
  events::Resolver resolver_;
};

TEST_P(HaswellPlan, EveryGroupIsValidOnAHaswell) {
  const bool smt = GetParam();
  EXPECT_EQ(budget().general, smt ? 4 : 8);
  EXPECT_EQ(budget().fixed, 3);
  Selection selection;
  selection.max_level = 6;
  selection.all_info = true;
  const Plan plan = make_plan(model_, {smt, false}, selection, resolver_, budget());

  std::map<std::string, int> group_of;
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const Group& group = plan.groups[i];
    SCOPED_TRACE("group " + std::to_string(i + 1));
    EXPECT_TRUE(fits(group.events, budget()));
    int fixed = 0;
    int counter2_only = 0;
    std::set<int> fixed_used;
    for (const events::Encoding& event : group.events) {
      EXPECT_EQ(event.pmu, group.pmu);
      if (event.fixed_counter) {
        ++fixed;
        EXPECT_TRUE(fixed_used.insert(*event.fixed_counter).second) << "two events on fixed counter "
                                                                     << *event.fixed_counter;
      }
      if (event.counter_mask == 0b100) ++counter2_only;
      group_of[event.name] = static_cast<int>(i);
    }
    if (group.pmu == "cpu") {
      EXPECT_LE(static_cast<int>(group.events.size()) - fixed, budget().general);
      EXPECT_LE(counter2_only, 1);
    }
    if (group.pmu == "uncore_arb") {
      EXPECT_LE(group.events.size(), 2u);  // the arbiter has two counters
    }
  }

  // Every event of every node and Info metric is counted.
  const model::Dependencies deps(model_, {smt, false}, plan.identities);
  EXPECT_EQ(plan.nodes.size(), model_.nodes.size());
  for (const std::string& node : plan.nodes) {
    std::set<int> groups;
    for (const std::string& event : deps.events_of(node)) {
      ASSERT_EQ(group_of.count(event), 1u) << node << " needs " << event;
      groups.insert(group_of.at(event));
    }
  }
  EXPECT_TRUE(plan.multiplexed());
  EXPECT_GT(plan.core_groups(), smt ? 15 : 8);
}

// Level 1 needs four general events, but Retiring's threshold asks whether
// Heavy_Operations is over, which needs IDQ.MS_UOPS: five, so with SMT on
// (four counters) the groups rotate. Info metrics never add a group.
TEST_P(HaswellPlan, LevelOneFitsOneGroupWithoutSmt) {
  const bool smt = GetParam();
  const Plan plan = make_plan(model_, {smt, false}, Selection{}, resolver_, budget());
  EXPECT_EQ(plan.core_groups(), smt ? 2 : 1);
  EXPECT_EQ(plan.groups.size(), static_cast<size_t>(plan.core_groups()));
  EXPECT_EQ(plan.multiplexed(), smt);
  EXPECT_FALSE(plan.left_out.empty());
}

INSTANTIATE_TEST_SUITE_P(Smt, HaswellPlan, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& smt) { return smt.param ? "On" : "Off"; });

}  // namespace
}  // namespace topdown::schedule
