// The shipped Intel Ice Lake client model (TMA 5.1): its tree against
// Intel's perfmon metrics file it was written from, and level 1 computed by
// hand from synthetic counts, with the PERF_METRICS register and with
// general counters only.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cpu_ids.h"
#include "intel_model_support.h"
#include "model/dependencies.h"
#include "model/model.h"

namespace topdown::model {
namespace {

const std::filesystem::path kPerfmonMetrics = testing::perfmon_metrics_file("ICL", "icelake_metrics.json");

using testing::Counts;

class IclModel : public testing::ShippedModelTest {
 protected:
  IclModel() : ShippedModelTest("icl") {}

  double level1_sum(const Counts& counts, const RunVariables& vars) const {
    double sum = 0;
    for (const char* level1 : {"Frontend_Bound", "Bad_Speculation", "Backend_Bound", "Retiring"}) {
      sum += value(level1, counts, vars);
    }
    return sum;
  }

  struct LevelOne {
    double frontend_bound;
    double backend_bound;
    double retiring;
    double bad_speculation;
  };

  // Level 1 from `counts`, with SMT off and on. Bad_Speculation is what the
  // others leave, so it and the sum are exact only up to rounding.
  void expect_level_one(const Counts& counts, bool perf_metrics, const LevelOne& expected) const {
    for (const bool smt : {false, true}) {
      SCOPED_TRACE(smt ? "SMT on" : "SMT off");
      const RunVariables vars{smt, false, perf_metrics};
      EXPECT_DOUBLE_EQ(value("Frontend_Bound", counts, vars), expected.frontend_bound);
      EXPECT_DOUBLE_EQ(value("Backend_Bound", counts, vars), expected.backend_bound);
      EXPECT_DOUBLE_EQ(value("Retiring", counts, vars), expected.retiring);
      EXPECT_NEAR(value("Bad_Speculation", counts, vars), expected.bad_speculation, 1e-15);
      EXPECT_NEAR(level1_sum(counts, vars), 1.0, 1e-15);
    }
  }
};

TEST_F(IclModel, DescribesIceLakeClient) {
  EXPECT_EQ(model_.name, "icl");
  EXPECT_EQ(model_.pfm_pmu, "icl");
  EXPECT_EQ(model_.counters.general_for(true), 8u);
  EXPECT_EQ(model_.counters.general_for(false), 8u);
  EXPECT_EQ(model_.counters.fixed, 4u);
  for (const unsigned cpu_model : {0x7Du, 0x7Eu}) {
    EXPECT_TRUE(model_.matches(testing::intel_cpu(6, cpu_model))) << cpu_model;
  }
  EXPECT_FALSE(model_.matches(testing::intel_cpu(6, 0x6A)));  // Ice Lake server: a different model
}

TEST_F(IclModel, HasTheTreeAndInfoMetricsOfTma51) {
  const testing::TreeCount count = testing::count_tree(model_);
  EXPECT_EQ(count.nodes_per_level, (std::map<int, int>{{1, 4}, {2, 8}, {3, 26}, {4, 41}, {5, 14}, {6, 10}}));
  EXPECT_EQ(count.infos, 121);
  EXPECT_EQ(model_.nodes.size(), 103u + 121u);
}

// Info and Bottleneck metrics are outside perfmon's tree; 4K_Aliasing is
// found by its vendor name.
TEST_F(IclModel, MatchesEveryMetricOfThePerfmonFile) {
  if (!std::filesystem::exists(kPerfmonMetrics)) GTEST_SKIP() << kPerfmonMetrics << " is absent";
  const testing::PerfmonComparison perfmon = testing::compare_with_perfmon(model_, kPerfmonMetrics);
  EXPECT_EQ(perfmon.tree_nodes, 103);
  EXPECT_EQ(perfmon.infos, 121);
  EXPECT_TRUE(perfmon.left_out.empty());
  EXPECT_EQ(node("4K_Aliasing").name, "G4K_Aliasing");
}

// PERF_METRICS fields 2000/1000/4000/3000 of 10000 slots; 500 dropped uops
// and 100 clears move 0.05 out of Frontend_Bound and 5 * 100 / 10000 into
// Backend_Bound; Bad_Speculation is what is left.
TEST_F(IclModel, LevelOneFromThePerfMetricsRegister) {
  const Counts counts = {{"PERF_METRICS.FRONTEND_BOUND", 2000},
                         {"PERF_METRICS.BAD_SPECULATION", 1000},
                         {"PERF_METRICS.RETIRING", 4000},
                         {"PERF_METRICS.BACKEND_BOUND", 3000},
                         {"TOPDOWN.SLOTS", 10000},
                         {"INT_MISC.UOP_DROPPING", 500},
                         {"INT_MISC.CLEARS_COUNT", 100}};
  expect_level_one(counts, true,
                   {.frontend_bound = 0.15, .backend_bound = 0.35, .retiring = 0.4, .bad_speculation = 0.1});
}

// General counters only, each PERF_METRICS field read from the event that
// counts the same slots: 10000 slots, 2500 undelivered of which 500 dropped,
// 3500 backend-bound plus 100 clears of 5 slots, 3000 retired; bad
// speculation is what is left.
TEST_F(IclModel, LevelOneFromGeneralCounters) {
  Counts counts = {{"TOPDOWN.SLOTS_P", 10000},     {"IDQ_UOPS_NOT_DELIVERED.CORE", 2500},
                   {"INT_MISC.UOP_DROPPING", 500}, {"TOPDOWN.BACKEND_BOUND_SLOTS", 3500},
                   {"INT_MISC.CLEARS_COUNT", 100}, {"UOPS_RETIRED.SLOTS", 3000}};
  expect_level_one(counts, false,
                   {.frontend_bound = 0.2, .backend_bound = 0.4, .retiring = 0.3, .bad_speculation = 0.1});

  // Multiplexed counts may leave less than nothing for bad speculation:
  // it stays 0, as perfmon has it, and only then the sum exceeds 1.
  counts["TOPDOWN.BACKEND_BOUND_SLOTS"] = 5000;
  const RunVariables vars{true, false, false};
  EXPECT_DOUBLE_EQ(value("Bad_Speculation", counts, vars), 0.0);
  EXPECT_NEAR(level1_sum(counts, vars), 1.05, 1e-15);
}

// The two ways count the same slots with different events: the run variable
// decides which events a node needs.
TEST_F(IclModel, PerfMetricsChoosesTheEventsOfLevelOne) {
  const Dependencies with_register(model_, {false, false, true});
  const Dependencies general_only(model_, {false, false, false});
  EXPECT_EQ(
      with_register.events_of("Frontend_Bound"),
      (std::set<std::string>{"PERF_METRICS.FRONTEND_BOUND", "PERF_METRICS.BAD_SPECULATION", "PERF_METRICS.RETIRING",
                             "PERF_METRICS.BACKEND_BOUND", "INT_MISC.UOP_DROPPING", "TOPDOWN.SLOTS"}));
  EXPECT_EQ(general_only.events_of("Frontend_Bound"),
            (std::set<std::string>{"IDQ_UOPS_NOT_DELIVERED.CORE", "INT_MISC.UOP_DROPPING", "TOPDOWN.SLOTS_P"}));
  EXPECT_EQ(with_register.events_of("Info_Thread_SLOTS"), (std::set<std::string>{"TOPDOWN.SLOTS"}));
  EXPECT_EQ(general_only.events_of("Info_Thread_SLOTS"), (std::set<std::string>{"TOPDOWN.SLOTS_P"}));
  for (const Node& each : model_.nodes) {
    for (const std::string& event : general_only.events_of(each.name)) {
      EXPECT_FALSE(event.starts_with("PERF_METRICS.")) << each.name;
    }
  }
}

TEST_F(IclModel, ThresholdsFollowPerfmon) {
  EXPECT_TRUE(over("Fetch_Latency", 0.11, {{"parent_over", 1}}));
  EXPECT_FALSE(over("Fetch_Latency", 0.11, {{"parent_over", 0}}));
  EXPECT_FALSE(over("Backend_Bound", 0.2, {}));
  EXPECT_TRUE(over("Backend_Bound", 0.21, {}));
  // Nodes that stand on their own.
  EXPECT_TRUE(over("Split_Loads", 0.31, {{"parent_over", 0}}));
  EXPECT_TRUE(over("Port_6", 0.61, {{"parent_over", 0}}));
  EXPECT_TRUE(over("Fetch_Bandwidth", 0.21, {{"parent_over", 0}}));
  // Retiring is also over when Heavy_Operations is.
  EXPECT_TRUE(over("Retiring", 0.3, {{"over(Heavy_Operations)", 1}}));
  EXPECT_FALSE(over("Retiring", 0.3, {{"over(Heavy_Operations)", 0}}));
  EXPECT_TRUE(over("Retiring", 0.71, {{"over(Heavy_Operations)", 0}}));
  // Info thresholds keep perfmon's units.
  EXPECT_TRUE(over("Bottleneck_Mispredictions", 21, {}));
  EXPECT_FALSE(over("Bottleneck_Mispredictions", 0.5, {}));
  EXPECT_TRUE(over("Info_Thread_UpTB", 7.4, {}));  // below Pipeline_Width * 1.5
  EXPECT_FALSE(over("Info_Thread_UpTB", 7.5, {}));
  EXPECT_TRUE(over("Info_Frontend_DSB_Coverage", 0.6, {{"Info_Thread_IPC", 2}}));
  EXPECT_FALSE(over("Info_Frontend_DSB_Coverage", 0.6, {{"Info_Thread_IPC", 1.5}}));
  EXPECT_TRUE(over("Info_System_MUX", 0.8, {}));
  EXPECT_FALSE(over("Info_System_MUX", 1.0, {}));
}

}  // namespace
}  // namespace topdown::model
