#include "region/perf_metrics.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "region/snapshot.h"

namespace topdown::region::metrics {
namespace {

uint64_t pack(std::initializer_list<uint64_t> fields) {
  uint64_t metrics = 0;
  int shift = 0;
  for (uint64_t field_value : fields) {
    metrics |= field_value << shift;
    shift += 8;
  }
  return metrics;
}

// A region between two readings of one period, through the bank and Totals
// as the session does it.
std::vector<NodeValue> region(uint64_t slots_a, uint64_t metrics_a, uint64_t slots_b, uint64_t metrics_b, int level) {
  PeriodBank bank(field_count(level));
  Snapshot a;
  Snapshot b;
  bank.cumulative(slots_a, metrics_a, a);
  bank.cumulative(slots_b, metrics_b, b);
  a.valid = b.valid = true;
  Totals totals;
  totals.add(a, b, 1 + static_cast<std::size_t>(field_count(level)));
  return decode(totals.deltas[0], totals.deltas.data() + 1, level);
}

double fraction_of(const std::vector<NodeValue>& nodes, const std::string& name) {
  for (const NodeValue& node : nodes) {
    if (node.name == name) return node.fraction.value_or(-100);
  }
  ADD_FAILURE() << name << " missing";
  return -100;
}

TEST(RegionPerfMetrics, FieldsAreBytesFromTheLowEnd) {
  const uint64_t metrics = pack({0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88});
  for (int i = 0; i < 8; ++i) EXPECT_EQ(field(metrics, i), 0x11u * static_cast<uint64_t>(i + 1)) << i;
}

TEST(RegionPerfMetrics, LevelOneFieldsSummingToFullGiveFractionsSummingToOne) {
  const uint64_t metrics = pack({0x40, 0x10, 0x50, 0x5f});
  const auto nodes = region(0, 0, 1000, metrics, 1);
  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(nodes[0].name, "Frontend_Bound");
  EXPECT_EQ(nodes[1].name, "Bad_Speculation");
  EXPECT_EQ(nodes[2].name, "Backend_Bound");
  EXPECT_EQ(nodes[3].name, "Retiring");
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Retiring"), 0x40 / 255.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Bad_Speculation"), 0x10 / 255.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Frontend_Bound"), 0x50 / 255.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Backend_Bound"), 0x5f / 255.0);
  double sum = 0;
  for (const auto& node : nodes) sum += *node.fraction;
  EXPECT_DOUBLE_EQ(sum, 1.0);
  EXPECT_DOUBLE_EQ(*nodes[3].slots, 1000 * 0x40 / 255.0);
  EXPECT_EQ(nodes[3].vendor_name, "topdown-retiring");
  EXPECT_EQ(nodes[3].level, 1);
  EXPECT_EQ(nodes[3].parent, "");
}

TEST(RegionPerfMetrics, OneFieldHoldingEverythingIsTheWholeRegion) {
  const auto nodes = region(0, 0, 5000, pack({0, 0, 0, 0xff, 0, 0, 0, 0xff}), 2);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Backend_Bound"), 1.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Memory_Bound"), 1.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Core_Bound"), 0.0);
  for (const char* empty : {"Frontend_Bound", "Bad_Speculation", "Retiring", "Fetch_Latency", "Fetch_Bandwidth",
                            "Branch_Mispredicts", "Machine_Clears", "Heavy_Operations", "Light_Operations"}) {
    EXPECT_DOUBLE_EQ(fraction_of(nodes, empty), 0.0) << empty;
  }
}

TEST(RegionPerfMetrics, RegionDeltasScaleEachReadingBySlotsAsTheSeedsShow) {
  // slots_a = 1000, slots_b = 3000: retiring_slots = f_b * 3000 - f_a * 1000,
  // ratio = retiring_slots / (3000 - 1000) (in units of 1/0xff).
  const uint64_t a = pack({0x80, 0x20, 0x40, 0x3f});
  const uint64_t b = pack({0x60, 0x30, 0x50, 0x3f});
  const auto nodes = region(1000, a, 3000, b, 1);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Retiring"), (0x60 * 3000.0 - 0x80 * 1000.0) / 255.0 / 2000.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Bad_Speculation"), (0x30 * 3000.0 - 0x20 * 1000.0) / 255.0 / 2000.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Frontend_Bound"), (0x50 * 3000.0 - 0x40 * 1000.0) / 255.0 / 2000.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Backend_Bound"), (0x3f * 3000.0 - 0x3f * 1000.0) / 255.0 / 2000.0);
}

TEST(RegionPerfMetrics, LevelTwoDerivesTheOtherHalfOfEachCategoryBySubtraction) {
  const uint64_t metrics = pack({0x80, 0x20, 0x40, 0x3f, 0x10, 0x18, 0x30, 0x20});
  const auto nodes = region(0, 0, 2550, metrics, 2);
  ASSERT_EQ(nodes.size(), 12u);
  const char* const order[] = {"Frontend_Bound",     "Fetch_Latency",  "Fetch_Bandwidth",  "Bad_Speculation",
                               "Branch_Mispredicts", "Machine_Clears", "Backend_Bound",    "Memory_Bound",
                               "Core_Bound",         "Retiring",       "Light_Operations", "Heavy_Operations"};
  for (std::size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(nodes[i].name, order[i]) << i;
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Heavy_Operations"), 0x10 / 255.0);
  EXPECT_NEAR(fraction_of(nodes, "Light_Operations"), (0x80 - 0x10) / 255.0, 1e-12);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Branch_Mispredicts"), 0x18 / 255.0);
  EXPECT_NEAR(fraction_of(nodes, "Machine_Clears"), (0x20 - 0x18) / 255.0, 1e-12);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Fetch_Latency"), 0x30 / 255.0);
  EXPECT_NEAR(fraction_of(nodes, "Fetch_Bandwidth"), (0x40 - 0x30) / 255.0, 1e-12);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Memory_Bound"), 0x20 / 255.0);
  EXPECT_NEAR(fraction_of(nodes, "Core_Bound"), (0x3f - 0x20) / 255.0, 1e-12);
  EXPECT_EQ(nodes[2].parent, "Frontend_Bound");
  EXPECT_EQ(nodes[2].level, 2);
  EXPECT_EQ(nodes[1].vendor_name, "topdown-fetch-lat");
}

TEST(RegionPerfMetrics, DeltasStayExactAcrossAReset) {
  // Region from (slots 400, fields a) to after a reset: the period closed at
  // 2000 slots with fields m1, then 600 slots of a new period with fields m2.
  const uint64_t a = pack({0x80, 0x20, 0x40, 0x3f});
  const uint64_t m1 = pack({0x70, 0x28, 0x40, 0x3f});
  const uint64_t m2 = pack({0x10, 0x10, 0x10, 0xcf});
  PeriodBank bank(4);
  Snapshot begin;
  Snapshot end;
  bank.cumulative(400, a, begin);
  bank.close_period(2000, m1);
  bank.cumulative(600, m2, end);
  begin.valid = end.valid = true;
  Totals totals;
  totals.add(begin, end, 5);
  EXPECT_EQ(totals.deltas[0], 2000 - 400 + 600);
  const auto nodes = decode(totals.deltas[0], totals.deltas.data() + 1, 1);
  const double slots = 2200.0;
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Retiring"), (0x70 * 2000.0 - 0x80 * 400.0 + 0x10 * 600.0) / 255.0 / slots);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Backend_Bound"), (0x3f * 2000.0 - 0x3f * 400.0 + 0xcf * 600.0) / 255.0 / slots);
}

TEST(RegionPerfMetrics, SlotsThatWrapStillGiveTheTrueDelta) {
  // The cumulative slots passed 2^64 between the readings.
  const uint64_t near_wrap = ~uint64_t{0} - 99;
  const uint64_t metrics = pack({0x80, 0x20, 0x40, 0x3f});
  const auto nodes = region(near_wrap, metrics, near_wrap + 1000, metrics, 1);
  EXPECT_DOUBLE_EQ(*nodes[3].slots, 1000 * 0x80 / 255.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Retiring"), 0x80 / 255.0);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Backend_Bound"), 0x3f / 255.0);
}

TEST(RegionPerfMetrics, AShortRegionsFieldMayStepDownByItsRounding) {
  // 100/255 of 1000 slots, then 99/255 of 1001: the region's retiring slots
  // come out negative, as the seeds' formula gives them.
  const auto nodes = region(1000, pack({100, 50, 50, 55}), 1001, pack({99, 51, 50, 55}), 1);
  EXPECT_DOUBLE_EQ(fraction_of(nodes, "Retiring"), (99.0 * 1001 - 100.0 * 1000) / 255.0);
  EXPECT_LT(fraction_of(nodes, "Retiring"), 0.0);
}

TEST(RegionPerfMetrics, NoSlotsMeansNoFractions) {
  const int64_t fields[8] = {};
  for (const NodeValue& node : decode(0, fields, 2)) {
    EXPECT_FALSE(node.fraction.has_value()) << node.name;
    EXPECT_FALSE(node.slots.has_value()) << node.name;
  }
}

TEST(RegionPerfMetrics, ResetIsDueOncePeriodReachesTheSchedule) {
  const ResetSchedule schedule{1000};
  EXPECT_FALSE(schedule.due(999));
  EXPECT_TRUE(schedule.due(1000));
  EXPECT_EQ(ResetSchedule{}.max_period_slots, uint64_t{1} << 32);
}

TEST(RegionPerfMetrics, GroupHasSlotsLeadingAndAFieldEventEach) {
  for (int level : {1, 2}) {
    const auto events = group_events(4, level, false);
    ASSERT_EQ(events.size(), level == 1 ? 5u : 9u);
    EXPECT_EQ(events[0].name, "slots");
    EXPECT_EQ(events[0].config, 0x0400u);
    for (std::size_t i = 1; i < events.size(); ++i) EXPECT_EQ(events[i].config, 0x8000u + 0x100u * (i - 1)) << i;
    for (const auto& event : events) {
      EXPECT_EQ(event.type, 4u);
      EXPECT_TRUE(event.exclude_kernel);
      EXPECT_TRUE(event.exclude_hv);
      EXPECT_FALSE(event.exclude_user);
    }
  }
  EXPECT_FALSE(group_events(8, 1, true)[2].exclude_kernel);
  EXPECT_EQ(group_events(8, 1, true)[2].type, 8u);
  const auto names = group_events(4, 2, false);
  EXPECT_EQ(names[1].name, "topdown-retiring");
  EXPECT_EQ(names[8].name, "topdown-mem-bound");
}

class RegionPerfMetricsSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / ("topdown-region-" + std::to_string(::getpid()) + "-" +
                                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  void add_pmu(const std::string& name, const std::string& type, std::initializer_list<const char*> events) {
    std::filesystem::create_directories(root_ / name / "events");
    std::ofstream(root_ / name / "type") << type << "\n";
    for (const char* event : events) std::ofstream(root_ / name / "events" / event) << "event=0x00\n";
  }
  std::filesystem::path root_;
};

TEST_F(RegionPerfMetricsSysfs, FindsLevelOneMetricsOnTheCorePmu) {
  add_pmu("cpu", "4", {"slots", "topdown-retiring", "topdown-be-bound"});
  const auto support = detect(root_);
  ASSERT_TRUE(support.has_value());
  EXPECT_EQ(support->pmu, "cpu");
  EXPECT_EQ(support->type, 4u);
  EXPECT_FALSE(support->level2);
}

TEST_F(RegionPerfMetricsSysfs, FindsLevelTwoOnAHybridCore) {
  add_pmu("cpu_atom", "10", {"slots"});
  add_pmu("cpu_core", "8", {"slots", "topdown-retiring", "topdown-heavy-ops"});
  const auto support = detect(root_);
  ASSERT_TRUE(support.has_value());
  EXPECT_EQ(support->pmu, "cpu_core");
  EXPECT_EQ(support->type, 8u);
  EXPECT_TRUE(support->level2);
}

TEST_F(RegionPerfMetricsSysfs, NoMetricsWithoutTheirEventsOrWithoutAPmu) {
  EXPECT_FALSE(detect(root_).has_value());
  add_pmu("cpu", "4", {"cycles", "instructions"});
  EXPECT_FALSE(detect(root_).has_value());
  add_pmu("cpu", "four", {"slots", "topdown-retiring"});
  EXPECT_FALSE(detect(root_).has_value());
}

}  // namespace
}  // namespace topdown::region::metrics
