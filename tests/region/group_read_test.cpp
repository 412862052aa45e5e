#include "region/group_read.h"

#include <gtest/gtest.h>

namespace topdown::region {
namespace {

TEST(RegionGroupRead, TakesTimesAndValuesInGroupOrder) {
  const uint64_t words[] = {3, 900, 600, 10, 20, 30};
  Snapshot snapshot;
  ASSERT_TRUE(parse_group_read(words, 6, 3, 1, snapshot));
  EXPECT_TRUE(snapshot.valid);
  EXPECT_EQ(snapshot.time_enabled, 900u);
  EXPECT_EQ(snapshot.time_running, 600u);
  EXPECT_EQ(snapshot.values[0], 10u);
  EXPECT_EQ(snapshot.values[1], 20u);
  EXPECT_EQ(snapshot.values[2], 30u);
}

TEST(RegionGroupRead, ScalesMembersButNotTheLeader) {
  const uint64_t words[] = {2, 1, 1, 1000, 7};
  Snapshot snapshot;
  ASSERT_TRUE(parse_group_read(words, 5, 2, 0xff, snapshot));
  EXPECT_EQ(snapshot.values[0], 1000u);
  EXPECT_EQ(snapshot.values[1], 7u * 0xff);
}

TEST(RegionGroupRead, RejectsShortReadsAndOtherGroups) {
  const uint64_t words[] = {3, 900, 600, 10, 20, 30};
  Snapshot snapshot;
  snapshot.valid = true;
  EXPECT_FALSE(parse_group_read(words, 5, 3, 1, snapshot));
  EXPECT_FALSE(snapshot.valid);
  EXPECT_FALSE(parse_group_read(words, 6, 2, 1, snapshot));
  EXPECT_FALSE(parse_group_read(words, 0, 3, 1, snapshot));
  EXPECT_FALSE(parse_group_read(words, 6, 0, 1, snapshot));
}

TEST(RegionTotals, SubtractsModuloTwoToTheSixtyFourAndCountsCalls) {
  Snapshot begin;
  Snapshot end;
  begin.valid = end.valid = true;
  begin.values[0] = ~uint64_t{0} - 99;  // wraps before the end
  end.values[0] = 100;
  begin.values[1] = 5;
  end.values[1] = 8;
  begin.time_enabled = 10;
  end.time_enabled = 30;
  begin.time_running = 10;
  end.time_running = 25;
  Totals totals;
  totals.add(begin, end, 2);
  totals.add(begin, end, 2);
  EXPECT_EQ(totals.deltas[0], 400);
  EXPECT_EQ(totals.deltas[1], 6);
  EXPECT_EQ(totals.time_enabled, 40u);
  EXPECT_EQ(totals.time_running, 30u);
  EXPECT_EQ(totals.calls, 2u);
  EXPECT_EQ(totals.dropped_calls, 0u);
}

TEST(RegionTotals, DropsPairsThatCannotBeSubtracted) {
  Snapshot begin;
  Snapshot end;
  begin.valid = end.valid = true;
  end.values[0] = 50;
  Totals totals;
  end.epoch = 1;
  totals.add(begin, end, 1);
  end.epoch = 0;
  end.valid = false;
  totals.add(begin, end, 1);
  EXPECT_EQ(totals.calls, 0u);
  EXPECT_EQ(totals.dropped_calls, 2u);
  EXPECT_EQ(totals.deltas[0], 0);
}

}  // namespace
}  // namespace topdown::region
