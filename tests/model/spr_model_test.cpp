// The shipped Intel Sapphire Rapids model (TMA 5.01): its tree against the
// perfmon metrics file it was written from, the metrics it leaves out, and
// levels 1 and 2 computed by hand from synthetic PERF_METRICS counts.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cpu_ids.h"
#include "intel_model_support.h"
#include "model/dependencies.h"
#include "model/model.h"

namespace topdown::model {
namespace {

const std::filesystem::path kPerfmonMetrics = testing::perfmon_metrics_file("SPR", "sapphirerapids_metrics.json");

// perfmon's TMA metrics are all in the model: Info_System_Power reads the
// kernel's RAPL counters in place of the free-running energy MSRs.
const std::set<std::string> kLeftOut = {};

constexpr double kSlots = 1'200'000;

class SprModel : public testing::ShippedModelTest {
 protected:
  SprModel() : ShippedModelTest("spr@5.01") {
    // The eight PERF_METRICS fields, as the kernel reports them: slots. The
    // four level-1 fields sum to 1,000,000, not to TOPDOWN.SLOTS, so the
    // values below also show that they are normalised by their own sum.
    counts_ = {{"TOPDOWN.SLOTS", kSlots},
               {"PERF_METRICS.FRONTEND_BOUND", 200'000},
               {"PERF_METRICS.BAD_SPECULATION", 100'000},
               {"PERF_METRICS.RETIRING", 400'000},
               {"PERF_METRICS.BACKEND_BOUND", 300'000},
               {"PERF_METRICS.HEAVY_OPERATIONS", 100'000},
               {"PERF_METRICS.BRANCH_MISPREDICTS", 75'000},
               {"PERF_METRICS.FETCH_LATENCY", 125'000},
               {"PERF_METRICS.MEMORY_BOUND", 160'000},
               {"INT_MISC.UOP_DROPPING", 12'000}};  // 1% of TOPDOWN.SLOTS
  }

  // A node's value over counts_, with the register. An event missing from
  // counts_ fails, so a level-1 or level-2 formula that needs more than these
  // counts shows up here.
  double value(std::string_view name) const { return ShippedModelTest::value(name, counts_, {true, false, true}); }

  testing::Counts counts_;
};

TEST_F(SprModel, DescribesSapphireRapidsServer) {
  EXPECT_EQ(model_.name, "spr");
  EXPECT_EQ(model_.version, "5.01");
  EXPECT_EQ(model_.pfm_pmu, "spr");
  EXPECT_EQ(model_.counters.general_for(true), 8u);
  EXPECT_EQ(model_.counters.general_for(false), 8u);
  EXPECT_EQ(model_.counters.fixed, 4u);
  EXPECT_EQ(model_.event_tables, (std::vector<std::string>{"intel_spr@5.01", "intel_core"}));
  EXPECT_TRUE(model_.matches(testing::intel_cpu(6, 0x8F)));
  EXPECT_FALSE(model_.matches(testing::intel_cpu(6, 0x6A)));  // Ice Lake server: a different model
}

TEST_F(SprModel, HasOneHundredFourteenNodesOnSixLevelsAndOneHundredNinetyInfoMetrics) {
  const testing::TreeCount count = testing::count_tree(model_);
  EXPECT_EQ(count.nodes_per_level, (std::map<int, int>{{1, 4}, {2, 8}, {3, 28}, {4, 45}, {5, 20}, {6, 9}}));
  // 136 TMA Bottleneck and Info metrics, and all 54 of perfmon's other
  // metrics: 20 on core events, 34 on the CHA, memory controller, UPI, M2M
  // and IIO boxes (6 of them divided by the CHA boxes of the machine's
  // sockets).
  EXPECT_EQ(count.infos, 136 + 54);
  EXPECT_EQ(model_.nodes.size(), 114u + 190u);
}

TEST_F(SprModel, MatchesPerfmonsTreeAndLeavesOutOnlyWhatItCannotCount) {
  if (!std::filesystem::exists(kPerfmonMetrics)) GTEST_SKIP() << kPerfmonMetrics << " is absent";
  const testing::PerfmonComparison perfmon = testing::compare_with_perfmon(model_, kPerfmonMetrics);
  EXPECT_EQ(perfmon.tree_nodes, 114);
  EXPECT_EQ(perfmon.left_out, kLeftOut);
}

TEST_F(SprModel, LevelsOneAndTwoReadThePerfMetricsRegister) {
  const Dependencies deps(model_, {true, false, true});
  const std::set<std::string> level1_fields = {"PERF_METRICS.FRONTEND_BOUND", "PERF_METRICS.BAD_SPECULATION",
                                               "PERF_METRICS.RETIRING", "PERF_METRICS.BACKEND_BOUND"};
  EXPECT_EQ(deps.events_of("Backend_Bound"), level1_fields);
  // Retiring's threshold asks whether Heavy_Operations is over.
  std::set<std::string> retiring = level1_fields;
  retiring.insert("PERF_METRICS.HEAVY_OPERATIONS");
  EXPECT_EQ(deps.events_of("Retiring"), retiring);
  // Frontend_Bound and Fetch_Latency leave out the uops dropped at a clear,
  // a share of TOPDOWN.SLOTS; the other level-2 nodes need only the fields.
  EXPECT_EQ(
      deps.events_of("Frontend_Bound"),
      (std::set<std::string>{"PERF_METRICS.FRONTEND_BOUND", "PERF_METRICS.BAD_SPECULATION", "PERF_METRICS.RETIRING",
                             "PERF_METRICS.BACKEND_BOUND", "INT_MISC.UOP_DROPPING", "TOPDOWN.SLOTS"}));
  EXPECT_EQ(
      deps.events_of("Memory_Bound"),
      (std::set<std::string>{"PERF_METRICS.MEMORY_BOUND", "PERF_METRICS.FRONTEND_BOUND", "PERF_METRICS.BAD_SPECULATION",
                             "PERF_METRICS.RETIRING", "PERF_METRICS.BACKEND_BOUND"}));
  EXPECT_EQ(deps.events_of("Heavy_Operations").count("PERF_METRICS.HEAVY_OPERATIONS"), 1u);
  EXPECT_EQ(deps.events_of("Branch_Mispredicts").count("PERF_METRICS.BRANCH_MISPREDICTS"), 1u);
  EXPECT_EQ(deps.events_of("Fetch_Latency").count("PERF_METRICS.FETCH_LATENCY"), 1u);
}

TEST_F(SprModel, LevelOneAndTwoValuesByHand) {
  // Level 1: each field over the fields' sum (1,000,000); Frontend_Bound less
  // the dropped uops' share of TOPDOWN.SLOTS; Bad_Speculation what is left.
  EXPECT_NEAR(value("Frontend_Bound"), 200'000.0 / 1e6 - 12'000 / kSlots, 1e-12);  // 0.19
  EXPECT_NEAR(value("Backend_Bound"), 0.3, 1e-12);
  EXPECT_NEAR(value("Retiring"), 0.4, 1e-12);
  EXPECT_NEAR(value("Bad_Speculation"), 1 - (0.19 + 0.3 + 0.4), 1e-12);  // 0.11
  // Level 2: four from the register, four as the parent less the sibling.
  EXPECT_NEAR(value("Fetch_Latency"), 125'000.0 / 1e6 - 0.01, 1e-12);  // 0.115
  EXPECT_NEAR(value("Fetch_Bandwidth"), 0.19 - 0.115, 1e-12);          // Frontend_Bound - Fetch_Latency
  EXPECT_NEAR(value("Branch_Mispredicts"), 0.075, 1e-12);
  EXPECT_NEAR(value("Machine_Clears"), 0.11 - 0.075, 1e-12);  // Bad_Speculation - Branch_Mispredicts
  EXPECT_NEAR(value("Memory_Bound"), 0.16, 1e-12);
  EXPECT_NEAR(value("Core_Bound"), 0.3 - 0.16, 1e-12);  // Backend_Bound - Memory_Bound
  EXPECT_NEAR(value("Heavy_Operations"), 0.1, 1e-12);
  EXPECT_NEAR(value("Light_Operations"), 0.4 - 0.1, 1e-12);  // Retiring - Heavy_Operations
  EXPECT_NEAR(value("Info_Thread_SLOTS"), kSlots, 1e-6);
}

TEST_F(SprModel, RemaindersAreNeverNegative) {
  // More mispredicted-branch slots than Bad_Speculation (counts of a
  // different moment, say): Machine_Clears is 0, not negative.
  counts_["PERF_METRICS.BRANCH_MISPREDICTS"] = 150'000;
  EXPECT_NEAR(value("Branch_Mispredicts"), 0.15, 1e-12);
  EXPECT_EQ(value("Machine_Clears"), 0);
  counts_["PERF_METRICS.MEMORY_BOUND"] = 350'000;
  EXPECT_EQ(value("Core_Bound"), 0);
}

TEST_F(SprModel, ThresholdsFollowPerfmon) {
  EXPECT_TRUE(over("L2_Bound", 0.06, {{"parent_over", 1}}));
  EXPECT_FALSE(over("L2_Bound", 0.06, {{"parent_over", 0}}));
  // Fetch_Bandwidth, Light_Operations and a few deep nodes stand on their own.
  EXPECT_TRUE(over("Fetch_Bandwidth", 0.21, {{"parent_over", 0}}));
  EXPECT_FALSE(over("Fetch_Bandwidth", 0.19, {{"parent_over", 1}}));
  EXPECT_TRUE(over("Split_Loads", 0.31, {{"parent_over", 0}}));
  EXPECT_TRUE(over("Port_6", 0.61, {{"parent_over", 0}}));
  EXPECT_TRUE(over("Retiring", 0.75, {{"over(Heavy_Operations)", 0}}));
  EXPECT_TRUE(over("Retiring", 0.3, {{"over(Heavy_Operations)", 1}}));
  EXPECT_FALSE(over("Retiring", 0.3, {{"over(Heavy_Operations)", 0}}));
  // Bottleneck metrics are percentages; Info thresholds use Pipeline_Width (6).
  EXPECT_TRUE(over("Bottleneck_Mispredictions", 21, {}));
  EXPECT_FALSE(over("Bottleneck_Mispredictions", 0.5, {}));
  EXPECT_TRUE(over("Info_Inst_Mix_IpTB", 12.5, {}));  // below 6 * 2 + 1
  EXPECT_FALSE(over("Info_Inst_Mix_IpTB", 13, {}));
  EXPECT_TRUE(over("Info_System_MUX", 0.8, {}));
  EXPECT_FALSE(node("Info_Thread_IPC").threshold.has_value());
}

}  // namespace
}  // namespace topdown::model
