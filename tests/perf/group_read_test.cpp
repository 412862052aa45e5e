#include <gtest/gtest.h>

#include <array>

#include "perf/group.h"

namespace topdown::perf {
namespace {

// nr, time_enabled, time_running, then value and id per event.
constexpr std::array<uint64_t, 9> kThreeEvents = {3, 900, 600, 10, 101, 20, 102, 30, 103};
constexpr std::array<uint64_t, 3> kIds = {101, 102, 103};

TEST(PerfGroupRead, TakesTheLeadersTimesAndEachValueByItsId) {
  std::array<uint64_t, 3> values{};
  Times times;
  ASSERT_TRUE(parse_group_read(kThreeEvents, kIds, values, times));
  EXPECT_EQ(times.enabled, 900u);
  EXPECT_EQ(times.running, 600u);
  EXPECT_EQ(values, (std::array<uint64_t, 3>{10, 20, 30}));
}

TEST(PerfGroupRead, MatchesValuesGivenInAnotherOrder) {
  const std::array<uint64_t, 9> words = {3, 1, 1, 30, 103, 10, 101, 20, 102};
  std::array<uint64_t, 3> values{};
  Times times;
  ASSERT_TRUE(parse_group_read(words, kIds, values, times));
  EXPECT_EQ(values, (std::array<uint64_t, 3>{10, 20, 30}));
}

TEST(PerfGroupRead, RejectsShortReadsOtherGroupsAndUnknownIds) {
  std::array<uint64_t, 3> values{};
  Times times;
  EXPECT_FALSE(parse_group_read(std::span(kThreeEvents).first(8), kIds, values, times));
  EXPECT_FALSE(parse_group_read(kThreeEvents, std::span(kIds).first(2), values, times));
  const std::array<uint64_t, 3> other_ids = {101, 102, 104};
  EXPECT_FALSE(parse_group_read(kThreeEvents, other_ids, values, times));
  EXPECT_FALSE(parse_group_read(kThreeEvents, kIds, std::span(values).first(2), times));
}

}  // namespace
}  // namespace topdown::perf
