#include <gtest/gtest.h>

#include <random>

#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

events::Encoding event(const std::string& name, uint64_t mask = ~0ull, std::optional<int> fixed = std::nullopt) {
  events::Encoding e;
  e.name = name;
  e.pmu = "cpu";
  e.counter_mask = mask;
  e.fixed_counter = fixed;
  return e;
}

TEST(Fits, CountsGeneralCountersAgainstTheBudget) {
  std::vector<events::Encoding> five{event("a"), event("b"), event("c"), event("d"), event("e")};
  EXPECT_TRUE(fits(five, {5, 0}));
  five.push_back(event("f"));
  EXPECT_FALSE(fits(five, {5, 0}));
}

TEST(Fits, UncoreEventsAreLimitedOnlyByTheirOwnCounters) {
  auto arb = [](const std::string& name, uint64_t mask) {
    events::Encoding e = event(name, mask);
    e.pmu = "uncore_arb";
    return e;
  };
  // Haswell's arbiter: occupancy on counter 0 only, requests on 0-1.
  EXPECT_TRUE(fits({arb("occupancy", 0b01), arb("requests", 0b11)}, {1, 0}));
  EXPECT_FALSE(fits({arb("occupancy", 0b01), arb("cycles_with_any", 0b01)}, {8, 0}));
  EXPECT_FALSE(fits({arb("occupancy", 0b01), arb("requests", 0b11), arb("coherent", 0b11)}, {8, 0}));
  // Unconstrained events of other PMUs never hit the core budget.
  std::vector<events::Encoding> many(6, arb("x", ~0ull));
  EXPECT_TRUE(fits(many, {2, 0}));
}

TEST(Fits, EventsOfOneGroupAgreeOnTheBoxFilter) {
  auto cha = [](const std::string& name, uint64_t filter) {
    events::Encoding e = event(name);
    e.pmu = "uncore_cha";
    e.config1 = filter;
    return e;
  };
  // Skylake server: occupancy and inserts of local data reads share CHA filter 1.
  const uint64_t local_reads = 0x40432ull << 32;
  const uint64_t remote_reads = 0x40431ull << 32;
  EXPECT_TRUE(fits({cha("occupancy", local_reads), cha("inserts", local_reads), cha("clockticks", 0)}, {4, 0}));
  EXPECT_FALSE(fits({cha("local", local_reads), cha("remote", remote_reads)}, {4, 0}));
  EXPECT_FALSE(fits({cha("clockticks", 0), cha("local", local_reads), cha("remote", remote_reads)}, {4, 0}));
}

TEST(Fits, HonoursCounterMasksWithAMatching) {
  // Counter 0 only, and counters 0-1: fits only as a=0, b=1.
  EXPECT_TRUE(fits({event("a", 0b01), event("b", 0b11)}, {4, 0}));
  EXPECT_FALSE(fits({event("a", 0b01), event("b", 0b01)}, {4, 0}));
  // A counter index beyond the budget is not usable.
  EXPECT_FALSE(fits({event("a", 0b1000)}, {3, 0}));
}

TEST(Fits, FixedCountersAreSeparateAndUnique) {
  std::vector<events::Encoding> group{event("inst", ~0ull, 0), event("cyc", ~0ull, 1), event("a"), event("b")};
  EXPECT_TRUE(fits(group, {2, 3}));
  group.push_back(event("inst_again", ~0ull, 0));
  EXPECT_FALSE(fits(group, {2, 3}));
  // Without fixed counters the same events need general ones.
  EXPECT_FALSE(fits({event("inst", ~0ull, 0), event("cyc", ~0ull, 1), event("a")}, {2, 0}));
}

TEST(Fits, NonCorePmusHaveNoCoreLimit) {
  std::vector<events::Encoding> msr(8, event("tsc"));
  for (auto& e : msr) e.pmu = "msr";
  EXPECT_TRUE(fits(msr, {1, 0}));
}

TEST(Pack, NeverPutsMoreEventsInAGroupThanCountersThatCount) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    int counters = 1 + static_cast<int>(rng() % 8);
    std::vector<events::Encoding> all;
    std::vector<int> together;
    int count = 1 + static_cast<int>(rng() % 20);
    for (int i = 0; i < count; ++i) {
      uint64_t mask = (rng() % 4 == 0) ? (1ull << (rng() % counters)) | 1ull : ~0ull;
      all.push_back(event("e" + std::to_string(i), mask));
      together.push_back(static_cast<int>(rng() % 5));
    }
    CounterBudget budget{counters, 0};
    auto groups = pack(all, together, budget);
    size_t placed = 0;
    for (const auto& group : groups) {
      EXPECT_LE(group.general_counters_used(budget), counters);
      EXPECT_TRUE(fits(group.events, budget));
      placed += group.events.size();
    }
    EXPECT_EQ(placed, all.size());
  }
}

TEST(Pack, KeepsEventsOfOneNodeTogether) {
  CounterBudget budget{3, 0};
  auto groups = pack({event("a"), event("b"), event("c"), event("d"), event("e")}, {0, 1, 1, 1, 2}, budget);
  ASSERT_EQ(groups.size(), 2u);
  // a alone cannot share with b,c,d (4 > 3), so b,c,d open their own group... a fills first.
  EXPECT_EQ(groups[0].events.size(), 2u);  // a, e
  EXPECT_EQ(groups[1].events.size(), 3u);  // b, c, d
  EXPECT_EQ(groups[1].events[0].name, "b");
}

events::Encoding metric(const std::string& name) {
  events::Encoding e = event(name);
  e.topdown_metric = true;
  return e;
}

TEST(Fits, PerfMetricsFieldsNeedSlotsAndNoCounter) {
  const events::Encoding slots = event("TOPDOWN.SLOTS", ~0ull, 3);
  std::vector<events::Encoding> level1{slots, metric("retiring"), metric("bad_spec"), metric("fe"), metric("be")};
  EXPECT_TRUE(fits(level1, {0, 4}));
  level1.push_back(event("a"));
  EXPECT_TRUE(fits(level1, {1, 4}));
  EXPECT_FALSE(fits({metric("retiring"), event("a")}, {8, 4}));
  // Without a fourth fixed counter there is no TOPDOWN.SLOTS to lead them.
  EXPECT_FALSE(fits({slots, metric("retiring")}, {8, 3}));
}

TEST(Pack, PutsPerfMetricsFieldsInTheGroupThatSlotsLeads) {
  // Slots is first needed by another node than the fields; they still end up
  // together, with slots first as the kernel requires.
  auto groups =
      pack({event("a"), event("b"), event("c"), event("TOPDOWN.SLOTS", ~0ull, 3), metric("retiring"), metric("fe")},
           {0, 0, 1, 1, 2, 2}, {2, 4});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].events.size(), 2u);
  ASSERT_EQ(groups[1].events.size(), 4u);
  EXPECT_EQ(groups[1].events[0].name, "TOPDOWN.SLOTS");
  EXPECT_EQ(groups[1].events[1].name, "c");
  EXPECT_EQ(groups[1].general_counters_used({2, 4}), 1);
  EXPECT_THROW(pack({metric("retiring")}, {0}, {2, 4}), Error);
}

TEST(Pack, RejectsAnEventNoCounterAccepts) { EXPECT_THROW(pack({event("x", 0b100)}, {0}, {2, 0}), Error); }

}  // namespace
}  // namespace topdown::schedule
