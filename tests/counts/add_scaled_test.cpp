// Adding counts of several places the way perf does: each scaled by its own
// enabled and running times first.
#include <gtest/gtest.h>

#include "counts/counts.h"

namespace topdown::counts {
namespace {

TEST(AddScaled, ScalesEachPartBeforeAdding) {
  Count total;
  add_scaled(total, {100, 1000, 500});   // half the time: 200
  add_scaled(total, {300, 1000, 1000});  // all the time: 300
  EXPECT_DOUBLE_EQ(*total.scaled(), 500);
  EXPECT_EQ(total.time_enabled, 2000u);
  EXPECT_EQ(total.time_running, 1500u);
  EXPECT_DOUBLE_EQ(total.running_share(), 0.75);
  // Adding raw values and times first would give 400 * 2000 / 1500.
  EXPECT_NE(*total.scaled(), 400.0 * 2000 / 1500);
}

TEST(AddScaled, EqualSharesKeepTheRawSum) {
  Count total;
  add_scaled(total, {100, 1000, 250});
  add_scaled(total, {300, 2000, 500});
  EXPECT_DOUBLE_EQ(total.value, 400);
  EXPECT_DOUBLE_EQ(*total.scaled(), 1600);
}

TEST(AddScaled, APartNeverCountedAddsNothingButItsTime) {
  Count total;
  add_scaled(total, {0, 1000, 0});
  EXPECT_FALSE(total.scaled());
  add_scaled(total, {50, 1000, 1000});
  EXPECT_DOUBLE_EQ(*total.scaled(), 50);
  EXPECT_DOUBLE_EQ(total.running_share(), 0.5);
}

TEST(AddScaled, AnInvalidPartMakesTheSumInvalid) {
  Count total;
  add_scaled(total, {50, 1000, 1000});
  add_scaled(total, {-5, 1000, 1000});
  EXPECT_FALSE(total.valid());
  add_scaled(total, {50, 1000, 1000});
  EXPECT_FALSE(total.valid());
}

TEST(AddScaled, SamplesAddEventByEventAndKeepTheLongestDuration) {
  Sample total;
  Sample first;
  first.events["cycles"] = {100, 1000, 500};
  first.duration_s = 1.5;
  Sample second;
  second.events["cycles"] = {300, 1000, 1000};
  second.events["instructions"] = {40, 1000, 1000};
  second.duration_s = 1.0;
  add_scaled(total, first);
  add_scaled(total, second);
  EXPECT_DOUBLE_EQ(*total.find("cycles")->scaled(), 500);
  EXPECT_DOUBLE_EQ(*total.find("instructions")->scaled(), 40);
  EXPECT_DOUBLE_EQ(total.duration_s, 1.5);
}

}  // namespace
}  // namespace topdown::counts
