#include "region/snapshot.h"

#include <gtest/gtest.h>

namespace topdown::region {
namespace {

TEST(RegionSnapshot, ScalesMembersButNotTheLeader) {
  Snapshot snapshot;
  snapshot.values[0] = 1000;
  snapshot.values[1] = 7;
  snapshot.values[2] = 9;
  snapshot.scale_members(2, 0xff);
  EXPECT_EQ(snapshot.values[0], 1000u);
  EXPECT_EQ(snapshot.values[1], 7u * 0xff);
  EXPECT_EQ(snapshot.values[2], 9u);  // not one of the group's
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
