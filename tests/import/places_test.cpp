// Rows per CPU, core, socket or thread kept apart (ReadOptions::per_place).
#include <gtest/gtest.h>

#include "import_fixture.h"

namespace topdown::import {
namespace {

std::vector<Interval> read_places(const std::string& text, bool per_interval) {
  topdown::testing::TempTree tree;
  std::vector<Interval> intervals;
  ReadOptions options;
  options.per_place = true;
  options.per_interval = per_interval;
  read_file(tree.write("perf.csv", text), options,
            [&](const Interval& interval, const FileInfo&) { intervals.push_back(interval); });
  return intervals;
}

std::vector<std::string> labels(const Interval& interval) {
  std::vector<std::string> out;
  for (const auto& place : interval.places) out.push_back(place.label);
  return out;
}

double scaled(const counts::Place& place, const std::string& event) {
  const counts::Count* count = place.sample.find(event);
  EXPECT_NE(count, nullptr) << place.label << " " << event;
  return count && count->scaled() ? *count->scaled() : -1;
}

TEST(Places, PerCpuRowsAreKeptAsCounted) {
  const auto intervals = read_places(
      "CPU0,100,,cycles,1000,100.00,,\n"
      "CPU1,250,,cycles,1000,50.00,,\n"
      "CPU0,10,,instructions,1000,100.00,,\n"
      "CPU1,<not counted>,,instructions,0,0.00,,\n",
      false);
  ASSERT_EQ(intervals.size(), 1u);
  const Interval& whole = intervals[0];
  EXPECT_EQ(labels(whole), (std::vector<std::string>{"CPU0", "CPU1"}));
  const counts::Count* cycles = whole.places[1].sample.find("cycles");
  ASSERT_NE(cycles, nullptr);
  EXPECT_DOUBLE_EQ(cycles->value, 250);
  EXPECT_EQ(cycles->time_enabled, 2000u);
  EXPECT_EQ(whole.places[1].sample.find("instructions"), nullptr);  // never counted there
  EXPECT_DOUBLE_EQ(*whole.sample.find("cycles")->scaled(), 600);
}

TEST(Places, IntervalsAddUpPerPlace) {
  const char* text =
      "1.0,CPU0,100,,cycles,1000,100.00,,\n"
      "1.0,CPU1,200,,cycles,1000,50.00,,\n"
      "2.0,CPU0,300,,cycles,1000,100.00,,\n"
      "2.0,CPU1,400,,cycles,1000,100.00,,\n";
  const auto whole = read_places(text, false);
  ASSERT_EQ(whole.size(), 1u);
  // CPU1: 600 counted in 2000 of 3000 ns: 900.
  EXPECT_DOUBLE_EQ(scaled(whole[0].places[1], "cycles"), 900);
  EXPECT_DOUBLE_EQ(scaled(whole[0].places[0], "cycles"), 400);
  EXPECT_DOUBLE_EQ(*whole[0].sample.find("cycles")->scaled(), 1300);

  const auto each = read_places(text, true);
  ASSERT_EQ(each.size(), 2u);
  EXPECT_DOUBLE_EQ(scaled(each[0].places[1], "cycles"), 400);
  EXPECT_DOUBLE_EQ(scaled(each[1].places[1], "cycles"), 400);
  EXPECT_DOUBLE_EQ(*each[0].sample.find("cycles")->scaled(), 500);
}

TEST(Places, PerThreadRows) {
  const auto intervals = read_places(
      "my-app-4242,1000,,cycles,5000,100.00,,\n"
      "my-app-4243,3000,,cycles,5000,100.00,,\n",
      false);
  ASSERT_EQ(intervals.size(), 1u);
  EXPECT_EQ(labels(intervals[0]), (std::vector<std::string>{"my-app-4242", "my-app-4243"}));
  EXPECT_DOUBLE_EQ(*intervals[0].sample.find("cycles")->scaled(), 4000);
}

TEST(Places, PerThreadRowsWithIntervals) {
  const auto intervals = read_places(
      "1.0,app-7,1000,,cycles,5000,100.00,,\n"
      "1.0,app-8,3000,,cycles,5000,100.00,,\n",
      true);
  ASSERT_EQ(intervals.size(), 1u);
  EXPECT_EQ(labels(intervals[0]), (std::vector<std::string>{"app-7", "app-8"}));
}

TEST(Places, PerfsPerCoreRowsKeepTheirLabels) {
  const auto intervals = read_places(
      "S0-D0-C0,2,300,,cycles,1000,100.00,,\n"
      "S0-D0-C1,2,500,,cycles,1000,100.00,,\n",
      false);
  EXPECT_EQ(labels(intervals[0]), (std::vector<std::string>{"S0-D0-C0", "S0-D0-C1"}));
}

TEST(Places, AFileWithoutPlacesHasNone) {
  const auto intervals = read_places("100,,cycles,1000,100.00,,\n", false);
  EXPECT_TRUE(intervals[0].places.empty());
  const auto counts = read_places("cycles 100\n", false);
  EXPECT_TRUE(counts[0].places.empty());
}

TEST(Places, AThreadColumnThatChangesShapeIsAnError) {
  EXPECT_NE(testing::read_error("app-7,1000,,cycles,5000,100.00,,\n"
                                "1000,,cycles,5000,100.00,,\n"),
            "");
}

}  // namespace
}  // namespace topdown::import
