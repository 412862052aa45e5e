// Counts per placement and their sum, on synthetic counts: with multiplexing
// each CPU is counted a different share of its time, so the sum must add the
// CPUs' scaled counts, and intervals must take each CPU's delta first.
#include <gtest/gtest.h>

#include "collect/collect.h"
#include "collect/places.h"

namespace topdown::collect {
namespace {

counts::Place place(const std::string& label, double value, uint64_t enabled, uint64_t running) {
  counts::Place out{label, {}};
  out.sample.events["cycles"] = {value, enabled, running};
  return out;
}

// Running totals read twice. CPU0 runs half of the time (1000 counted in
// 2000 ns in all: 600 scaled at the end), CPU1 a quarter (400 scaled).
const std::vector<counts::Place> kFirstRead{place("CPU0", 100, 1000, 500), place("CPU1", 50, 1000, 250)};
const std::vector<counts::Place> kSecondRead{place("CPU0", 300, 3000, 1500), place("CPU1", 100, 3000, 750)};

double scaled_cycles(const counts::Sample& sample) { return *sample.find("cycles")->scaled(); }

TEST(SumOfPlaces, IsTheSumOfEachPlacesScaledCount) {
  const counts::Sample total = sum_of_places(kSecondRead);
  EXPECT_DOUBLE_EQ(scaled_cycles(total), 600 + 400);
  EXPECT_EQ(total.find("cycles")->time_enabled, 6000u);
  EXPECT_EQ(total.find("cycles")->time_running, 2250u);
  // Adding raw values and times first would scale 400 by 6000 / 2250.
  counts::Sample raw;
  for (const auto& cpu : kSecondRead) raw.add("cycles", *cpu.sample.find("cycles"));
  EXPECT_NEAR(scaled_cycles(raw), 1066.67, 0.01);
}

TEST(SumOfPlaces, OnePlaceIsKeptExactly) {
  const counts::Sample total = sum_of_places({place("app", 123, 1000, 333)});
  EXPECT_EQ(total.find("cycles")->value, 123.0);
  EXPECT_EQ(total.find("cycles")->time_running, 333u);
  EXPECT_TRUE(sum_of_places({}).events.empty());
}

TEST(DeltasSince, IntervalDeltasPerPlaceAddUpToTheWhole) {
  const std::vector<counts::Place> first = deltas_since(kFirstRead, {});
  const std::vector<counts::Place> second = deltas_since(kSecondRead, kFirstRead);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[1].label, "CPU1");
  const counts::Count& cpu1 = *second[1].sample.find("cycles");
  EXPECT_EQ(cpu1.value, 50.0);
  EXPECT_EQ(cpu1.time_enabled, 2000u);
  EXPECT_EQ(cpu1.time_running, 500u);
  // Each interval's sum of scaled deltas: 200 + 200, then 400 + 200; they
  // add up to the whole run's 1000, as each CPU kept its share.
  const double first_sum = scaled_cycles(sum_of_places(first));
  const double second_sum = scaled_cycles(sum_of_places(second));
  EXPECT_DOUBLE_EQ(first_sum, 400);
  EXPECT_DOUBLE_EQ(second_sum, 600);
  EXPECT_DOUBLE_EQ(first_sum + second_sum, scaled_cycles(sum_of_places(kSecondRead)));
  // The delta of the scaled sums is not the interval's count: 1066.67 - 400.
  counts::Sample raw_first;
  counts::Sample raw_second;
  for (size_t i = 0; i < 2; ++i) {
    raw_first.add("cycles", *kFirstRead[i].sample.find("cycles"));
    raw_second.add("cycles", *kSecondRead[i].sample.find("cycles"));
  }
  EXPECT_GT(scaled_cycles(raw_second) - scaled_cycles(raw_first), second_sum + 60);
}

TEST(DeltasSince, AnEventFirstSeenLaterCountsFromZero) {
  std::vector<counts::Place> later = kSecondRead;
  later[0].sample.events["instructions"] = {70, 3000, 3000};
  const std::vector<counts::Place> delta = deltas_since(later, kFirstRead);
  EXPECT_EQ(delta[0].sample.find("instructions")->value, 70.0);
}

TEST(DeltasSince, PlacesOfCgroupsThatCameAndWentAreMatchedByCgroupAndLabel) {
  const auto in = [](const std::string& cgroup, double value) {
    counts::Place out = place("CPU0", value, 1000, 1000);
    out.cgroup = cgroup;
    return out;
  };
  // /a stays, /b was removed, /c is new, and the order changed.
  const std::vector<counts::Place> before{in("/a", 100), in("/b", 40)};
  const std::vector<counts::Place> now{in("/c", 7), in("/a", 130)};
  const std::vector<counts::Place> delta = deltas_since(now, before);
  ASSERT_EQ(delta.size(), 2u);
  EXPECT_EQ(delta[0].cgroup, "/c");
  EXPECT_EQ(delta[0].sample.find("cycles")->value, 7.0);  // new: all its counts
  EXPECT_EQ(delta[1].cgroup, "/a");
  EXPECT_EQ(delta[1].sample.find("cycles")->value, 30.0);
  EXPECT_EQ(delta[1].sample.find("cycles")->time_enabled, 0u);
}

TEST(SetDuration, AppliesToEveryPlace) {
  std::vector<counts::Place> places = kFirstRead;
  set_duration(places, 0.25);
  EXPECT_DOUBLE_EQ(places[0].sample.duration_s, 0.25);
  EXPECT_DOUBLE_EQ(places[1].sample.duration_s, 0.25);
  EXPECT_DOUBLE_EQ(sum_of_places(places).duration_s, 0.25);
}

TEST(CombineRuns, PlacesOfTheSameLabelTakeEachEventFromTheRunThatCountedIt) {
  WorkloadResult first;
  first.places = {place("CPU0", 10, 100, 100), place("CPU1", 20, 100, 100)};
  first.elapsed_s = 1.0;
  WorkloadResult second;
  second.places = {place("CPU0", 99, 100, 100), place("CPU1", 99, 100, 100)};
  second.places[1].sample.events["instructions"] = {5, 300, 300};
  second.elapsed_s = 3.0;
  const CombinedRuns combined = combine_runs({first, second});
  ASSERT_EQ(combined.result.places.size(), 2u);
  EXPECT_EQ(combined.result.places[0].label, "CPU0");
  EXPECT_EQ(combined.result.places[0].sample.find("cycles")->value, 10.0);
  EXPECT_EQ(combined.result.places[1].sample.find("cycles")->value, 20.0);
  EXPECT_EQ(combined.result.places[1].sample.find("instructions")->value, 5.0);
  EXPECT_DOUBLE_EQ(combined.result.places[1].sample.duration_s, 2.0);
}

TEST(CombineRuns, EachCgroupKeepsItsOwnPlaceOfACpu) {
  WorkloadResult first;
  first.places = {place("CPU0", 10, 100, 100), place("CPU0", 30, 100, 100)};
  first.places[0].cgroup = "/web";
  first.places[1].cgroup = "/db";
  WorkloadResult second = first;
  second.places[0].sample.events["instructions"] = {7, 100, 100};
  second.places[1].sample.events["instructions"] = {9, 100, 100};
  const CombinedRuns combined = combine_runs({first, second});
  ASSERT_EQ(combined.result.places.size(), 2u);
  EXPECT_EQ(combined.result.places[0].cgroup, "/web");
  EXPECT_EQ(combined.result.places[0].sample.find("cycles")->value, 10.0);
  EXPECT_EQ(combined.result.places[0].sample.find("instructions")->value, 7.0);
  EXPECT_EQ(combined.result.places[1].cgroup, "/db");
  EXPECT_EQ(combined.result.places[1].label, "CPU0");
  EXPECT_EQ(combined.result.places[1].sample.find("cycles")->value, 30.0);
  EXPECT_EQ(combined.result.places[1].sample.find("instructions")->value, 9.0);
}

}  // namespace
}  // namespace topdown::collect
