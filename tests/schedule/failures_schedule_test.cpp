// docs/failures.md, "Counters": more events than counters rotate; an event
// that no counter accepts, or no counter at all, is one clear error.
#include <gtest/gtest.h>

#include "schedule/plan.h"
#include "support/tiny_model.h"

namespace topdown::schedule {
namespace {

events::Encoding event(const std::string& name, uint64_t mask = ~0ull) {
  events::Encoding e;
  e.name = name;
  e.pmu = "cpu";
  e.counter_mask = mask;
  return e;
}

std::string pack_error(const std::vector<events::Encoding>& encodings, const CounterBudget& budget) {
  try {
    std::vector<int> together(encodings.size());
    for (size_t i = 0; i < together.size(); ++i) together[i] = static_cast<int>(i);
    pack(encodings, together, budget);
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

TEST(FailuresSchedule, MoreEventsThanCountersRotateInGroups) {
  const std::vector<events::Encoding> seven{event("a"), event("b"), event("c"), event("d"),
                                            event("e"), event("f"), event("g")};
  const auto groups = pack(seven, {0, 1, 2, 3, 4, 5, 6}, {3, 0});
  ASSERT_EQ(groups.size(), 3u);
  for (const auto& group : groups) EXPECT_LE(group.events.size(), 3u);
}

TEST(FailuresSchedule, EventThatNoCounterAcceptsIsNamed) {
  // Only counter 2 may count it, and two counters are usable.
  EXPECT_EQ(pack_error({event("PICKY.EVENT", 0b100)}, {2, 0}),
            "event 'PICKY.EVENT' cannot be counted: no counter of the 2 usable general counters accepts it; drop it "
            "or raise --counters if the health check was wrong");
}

TEST(FailuresSchedule, NoUsableGeneralCounterIsAnError) {
  // What the health check reports when every counter it tried read 0.
  events::ResolverConfig config;
  config.pfm_pmu = "-";
  const events::Resolver resolver(config);
  try {
    make_plan(testing::tiny_model(), {}, Selection{}, resolver, {0, 3});
    FAIL() << "planned without counters";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "no usable general counters (0); check `topdown info`");
  }
}

}  // namespace
}  // namespace topdown::schedule
