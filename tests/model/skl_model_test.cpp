// The shipped Intel Skylake client model (TMA 5.01): its tree against Intel's
// perfmon metrics for Skylake, a few values computed by hand from synthetic
// counts, and the metrics of the Skylake tuning guide with their thresholds.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "cpu_ids.h"
#include "intel_model_support.h"
#include "model/model.h"

namespace topdown::model {
namespace {

const std::filesystem::path kPerfmonMetrics = testing::perfmon_metrics_file("SKL", "skylake_metrics.json");

const RunVariables kSmtOff{.smt_enabled = false};
const RunVariables kSmtOn{.smt_enabled = true};

class SklModel : public testing::ShippedModelTest {
 protected:
  SklModel() : ShippedModelTest("skl") {}
};

TEST_F(SklModel, DescribesSkylakeClient) {
  EXPECT_EQ(model_.name, "skl");
  EXPECT_EQ(model_.pfm_pmu, "skl");
  EXPECT_EQ(model_.counters.general_for(true), 4u);
  EXPECT_EQ(model_.counters.general_for(false), 8u);
  EXPECT_EQ(model_.counters.fixed, 3u);
  for (const unsigned cpu_model : {0x4Eu, 0x5Eu, 0x8Eu, 0x9Eu, 0xA5u, 0xA6u}) {
    EXPECT_TRUE(model_.matches(testing::intel_cpu(6, cpu_model))) << cpu_model;
  }
  EXPECT_FALSE(model_.matches(testing::intel_cpu(6, 0x55)));  // Skylake server: a different model
}

TEST_F(SklModel, HasNinetyEightNodesOnSixLevelsAndAllInfoMetrics) {
  const testing::TreeCount count = testing::count_tree(model_);
  EXPECT_EQ(count.nodes_per_level, (std::map<int, int>{{1, 4}, {2, 8}, {3, 25}, {4, 34}, {5, 13}, {6, 14}}));
  EXPECT_EQ(count.infos, 109 + 16);  // perfmon's 97 Info and 12 Bottleneck metrics, the guide's 16
  EXPECT_EQ(std::count_if(model_.nodes.begin(), model_.nodes.end(),
                          [](const Node& each) { return each.is_info && each.name.starts_with("Guide_"); }),
            16);
}

TEST_F(SklModel, MatchesEveryMetricOfPerfmon) {
  if (!std::filesystem::exists(kPerfmonMetrics)) GTEST_SKIP() << kPerfmonMetrics << " is absent";
  // 4K_Aliasing is found by its vendor name.
  const testing::PerfmonComparison perfmon = testing::compare_with_perfmon(model_, kPerfmonMetrics);
  EXPECT_EQ(perfmon.tree_nodes, 98);
  EXPECT_EQ(perfmon.infos, 109);
  EXPECT_TRUE(perfmon.left_out.empty());
  EXPECT_EQ(node("4K_Aliasing").name, "G4K_Aliasing");
}

// Level 1 from hand-picked counts: 1000 thread cycles; with SMT on the core
// was busy 1600 any-thread cycles, i.e. 800 on this thread's share.
const testing::Counts kLevelOneCounts = {{"CPU_CLK_UNHALTED.THREAD", 1000},
                                         {"CPU_CLK_UNHALTED.THREAD_ANY", 1600},
                                         {"IDQ_UOPS_NOT_DELIVERED.CORE", 800},
                                         {"UOPS_RETIRED.RETIRE_SLOTS", 2000},
                                         {"UOPS_ISSUED.ANY", 2200},
                                         {"INT_MISC.RECOVERY_CYCLES", 25},
                                         {"INT_MISC.RECOVERY_CYCLES_ANY", 40},
                                         {"INST_RETIRED.ANY", 1600},
                                         {"MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM", 1},
                                         {"MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS", 10},
                                         {"BR_MISP_RETIRED.ALL_BRANCHES", 30},
                                         {"MACHINE_CLEARS.COUNT", 10}};

TEST_F(SklModel, LevelOneWithoutSmtSharesFourSlotsPerThreadCycle) {
  const auto& counts = kLevelOneCounts;
  EXPECT_DOUBLE_EQ(value("Frontend_Bound", counts, kSmtOff), 800.0 / 4000);
  EXPECT_DOUBLE_EQ(value("Bad_Speculation", counts, kSmtOff), (2200.0 - 2000 + 4 * 25) / 4000);
  EXPECT_DOUBLE_EQ(value("Backend_Bound", counts, kSmtOff), 1 - 0.2 - (2200.0 + 4 * 25) / 4000);
  EXPECT_DOUBLE_EQ(value("Retiring", counts, kSmtOff), 0.5);
  EXPECT_DOUBLE_EQ(value("Branch_Mispredicts", counts, kSmtOff), 0.75 * 0.075);
  EXPECT_DOUBLE_EQ(value("Guide_Retiring", counts, kSmtOff), 0.5);
  EXPECT_DOUBLE_EQ(value("Guide_Branch_Mispredict", counts, kSmtOff), 0.75 * 0.075);
  EXPECT_DOUBLE_EQ(value("Guide_Machine_Clears", counts, kSmtOff), 0.25 * 0.075);
  EXPECT_DOUBLE_EQ(value("Guide_CPI", counts, kSmtOff), 1000.0 / 1600);
  EXPECT_DOUBLE_EQ(value("Guide_Contested_Accesses", counts, kSmtOff), (60.0 * 1 + 10) / 1000);
}

// With SMT on the tree takes the thread's share of the core's slots, the
// tuning guide still four slots per thread cycle.
TEST_F(SklModel, LevelOneWithSmtUsesTheCoresSlots) {
  const auto& counts = kLevelOneCounts;
  EXPECT_DOUBLE_EQ(value("Frontend_Bound", counts, kSmtOn), 800.0 / 3200);
  EXPECT_DOUBLE_EQ(value("Bad_Speculation", counts, kSmtOn), (2200.0 - 2000 + 4 * 20) / 3200);
  EXPECT_DOUBLE_EQ(value("Retiring", counts, kSmtOn), 2000.0 / 3200);
  EXPECT_DOUBLE_EQ(value("Guide_Retiring", counts, kSmtOn), 0.5);
  EXPECT_DOUBLE_EQ(value("Guide_Branch_Mispredict", counts, kSmtOn), 0.75 * 0.075);
}

TEST_F(SklModel, ChildThresholdsNeedTheParentOver) {
  EXPECT_TRUE(over("L2_Bound", 0.06, {{"parent_over", 1}}));
  EXPECT_FALSE(over("L2_Bound", 0.06, {{"parent_over", 0}}));
  EXPECT_FALSE(over("L2_Bound", 0.04, {{"parent_over", 1}}));
  // TMA 5.01 lets these stand on their own.
  EXPECT_TRUE(over("Split_Loads", 0.31, {{"parent_over", 0}}));
  EXPECT_TRUE(over("Fetch_Bandwidth", 0.21, {{"parent_over", 0}}));
  EXPECT_FALSE(over("Fetch_Bandwidth", 0.2, {{"parent_over", 1}}));
  EXPECT_TRUE(over("Retiring", 0.3, {{"over(Heavy_Operations)", 1}}));
  EXPECT_FALSE(over("Retiring", 0.7, {{"over(Heavy_Operations)", 0}}));
}

TEST_F(SklModel, InfoAndBottleneckThresholdsKeepPerfmonsUnits) {
  EXPECT_TRUE(over("Bottleneck_Mispredictions", 20.5));  // percent
  EXPECT_FALSE(over("Bottleneck_Mispredictions", 0.9));
  EXPECT_TRUE(over("Info_Thread_UpTB", 5.9));  // below Pipeline_Width * 1.5
  EXPECT_TRUE(over("Info_Frontend_DSB_Coverage", 0.5, {{"Info_Thread_IPC", 2}}));
  EXPECT_FALSE(over("Info_Frontend_DSB_Coverage", 0.5, {{"Info_Thread_IPC", 1}}));
  EXPECT_TRUE(over("Info_System_MUX", 0.8));
  EXPECT_FALSE(over("Info_System_MUX", 1.0));
  EXPECT_FALSE(node("Info_Thread_IPC").threshold.has_value());
}

// Every metric of the Skylake tuning guide, with the guide's threshold:
// `at` is flagged, `below` (or `above` for the "less than" rules) is not.
struct GuideRule {
  const char* name;
  double at;
  double clear;
};

TEST_F(SklModel, HasEveryMetricOfTheTuningGuideWithItsThreshold) {
  const std::vector<GuideRule> rules = {
      {"Guide_CPI", 1.0001, 1.0},        // "highlighted if > 1"
      {"Guide_Retiring", 0.7499, 0.75},  // "investigate if % Retiring < 75"
      {"Guide_ITLB_Overhead", 0.05, 0.0499},
      {"Guide_ICache_Misses", 0.05, 0.0499},
      {"Guide_LCP", 0.05, 0.0499},
      {"Guide_Contested_Accesses", 0.05, 0.0499},
      {"Guide_Data_Sharing", 0.05, 0.0499},
      {"Guide_Blocked_Store_Forwarding", 0.05, 0.0499},
      {"Guide_4K_Aliasing", 0.1, 0.0999},
      {"Guide_DTLB_Overhead", 0.1, 0.0999},
      {"Guide_Divider", 0.05, 0.0499},
      {"Guide_Branch_Mispredict", 0.2, 0.1999},
      {"Guide_Machine_Clears", 0.02, 0.0199},
      {"Guide_FP_X87", 0.1001, 0.1},  // no threshold in the guide: TMA's X87_Use value
      {"Guide_Assists", 0.2, 0.1999},
      {"Guide_Memory_Bandwidth", 0.7001, 0.7},  // share of the guide's 51.2 GB/s peak
  };
  for (const GuideRule& rule : rules) {
    SCOPED_TRACE(rule.name);
    const Node& metric = node(rule.name);
    EXPECT_TRUE(metric.is_info);
    EXPECT_TRUE(over(rule.name, rule.at));
    EXPECT_FALSE(over(rule.name, rule.clear));
  }
  EXPECT_EQ(model_.constants.at("Guide_Peak_DRAM_BW"), 51.2);
  // The guide's FP scalar and vector shares are the TMA nodes (same formula).
  for (const char* share : {"FP_Scalar", "FP_Vector"}) {
    EXPECT_TRUE(over(share, 0.11, {{"parent_over", 1}})) << share;
    EXPECT_FALSE(over(share, 0.1, {{"parent_over", 1}})) << share;
  }
  // Where the guide's formula is a node's, the Guide_ metric is that node.
  EXPECT_EQ(node("Guide_ITLB_Overhead").formula.to_string(), "ITLB_Misses");
  EXPECT_EQ(node("Guide_LCP").formula.to_string(), "LCP");
  EXPECT_EQ(node("Guide_Blocked_Store_Forwarding").formula.to_string(), "Store_Fwd_Blk");
  EXPECT_EQ(node("Guide_Divider").formula.to_string(), "Divider");
}

}  // namespace
}  // namespace topdown::model
