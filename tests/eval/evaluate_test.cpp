#include <gtest/gtest.h>

#include "eval/bottleneck.h"
#include "eval/evaluate.h"
#include "support/tiny_model.h"

namespace topdown::eval {
namespace {

counts::Count exact(double value) { return {value, 1000, 1000}; }

// cycles 1000, width 4 -> 4000 slots; Busy 3000/4000, Idle 1000/4000.
counts::Sample busy_sample() {
  counts::Sample s;
  s.events["cycles"] = exact(1000);
  s.events["busy_slots"] = exact(3000);
  s.events["idle_slots"] = exact(1000);
  s.events["mem_stalls"] = exact(600);
  s.events["all_stalls"] = exact(800);
  s.events["instructions"] = exact(2500);
  return s;
}

const std::vector<std::string> kAll{"Busy", "Busy_Memory", "Busy_Core", "Idle", "Hyper", "IPC"};

TEST(Evaluate, ComputesNodesFromCounts) {
  auto model = testing::tiny_model();
  Evaluation e = evaluate(model, kAll, busy_sample(), {});
  EXPECT_DOUBLE_EQ(*e.find("Busy")->value, 0.75);
  EXPECT_DOUBLE_EQ(*e.find("Busy_Memory")->value, 0.75 * 600 / 800);
  EXPECT_DOUBLE_EQ(*e.find("Busy_Core")->value, 0.75 - 0.75 * 600 / 800);
  EXPECT_DOUBLE_EQ(*e.find("Idle")->value, 0.25);
  EXPECT_DOUBLE_EQ(*e.find("Hyper")->value, 0.0);
  EXPECT_DOUBLE_EQ(*e.find("IPC")->value, 2.5);
  ASSERT_TRUE(e.level1_sum);
  EXPECT_DOUBLE_EQ(*e.level1_sum, 1.0);
  EXPECT_TRUE(e.warnings.empty());
}

TEST(Evaluate, ThresholdsUseTheParentsResult) {
  auto model = testing::tiny_model();
  Evaluation e = evaluate(model, kAll, busy_sample(), {});
  EXPECT_TRUE(e.find("Busy")->over_threshold);         // 0.75 > 0.2
  EXPECT_TRUE(e.find("Busy_Memory")->over_threshold);  // 0.5625 > 0.1, parent over
  EXPECT_TRUE(e.find("Busy_Core")->over_threshold);    // 0.1875 > 0.1, parent over
  EXPECT_TRUE(e.find("Idle")->over_threshold);         // 0.25 > 0.2
  EXPECT_FALSE(e.find("Hyper")->over_threshold);
  EXPECT_FALSE(e.find("IPC")->over_threshold);  // no threshold
}

TEST(Evaluate, ChildrenOfANodeUnderThresholdAreNotOver) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events["busy_slots"] = exact(600);  // Busy 0.15 < 0.2
  s.events["idle_slots"] = exact(3400);
  Evaluation e = evaluate(model, kAll, s, {});
  EXPECT_FALSE(e.find("Busy")->over_threshold);
  EXPECT_FALSE(e.find("Busy_Memory")->over_threshold);  // 0.1125 > 0.1 but the parent is not over
}

// Haswell's Retiring is over when > 0.7 or when Heavy_Operations is over;
// over(NODE) asks for that verdict, even of a node not being reported.
TEST(Evaluate, ThresholdsMayAskForAnotherNodesVerdict) {
  auto model = testing::tiny_model();
  model.nodes[3].threshold = expr::Expression::parse("this > 0.9 or over(Busy_Memory)");  // Idle
  counts::Sample s = busy_sample();
  Evaluation e = evaluate(model, {"Idle"}, s, {});
  EXPECT_TRUE(e.find("Idle")->over_threshold);  // 0.25 < 0.9, but Busy_Memory 0.5625 is over
  s.events["mem_stalls"] = exact(80);           // Busy_Memory 0.075 < 0.1
  e = evaluate(model, {"Idle"}, s, {});
  EXPECT_FALSE(e.find("Idle")->over_threshold);
}

// Haswell's shape: Retiring asks for its child Heavy_Operations' verdict, and
// that child's threshold does not use parent_over, so no verdict waits on
// Retiring's (which would recurse forever).
TEST(Evaluate, AParentMayAskForAChildsVerdict) {
  auto model = testing::tiny_model();
  model.nodes[0].threshold = expr::Expression::parse("this > 0.9 or over(Busy_Memory)");  // Busy 0.75
  model.nodes[1].threshold = expr::Expression::parse("this > 0.1");                       // Busy_Memory 0.5625
  Evaluation e = evaluate(model, kAll, busy_sample(), {});
  EXPECT_TRUE(e.find("Busy")->over_threshold);
  EXPECT_TRUE(e.find("Busy_Memory")->over_threshold);
  EXPECT_TRUE(e.find("Busy_Core")->over_threshold);  // 0.1875 > 0.1 and its parent is over
}

TEST(Evaluate, VerdictEventsAreNeededByTheAskingNode) {
  auto model = testing::tiny_model();
  model.nodes[3].threshold = expr::Expression::parse("this > 0.9 or over(Busy_Memory)");
  model::Dependencies deps(model, {});
  EXPECT_EQ(deps.events_of("Idle"),
            (std::set<std::string>{"idle_slots", "cycles", "busy_slots", "mem_stalls", "all_stalls"}));
  EXPECT_EQ(deps.events_of("Busy"), (std::set<std::string>{"busy_slots", "cycles"}));
}

// Ice Lake's level 1 reads PERF_METRICS or general counters: only the taken
// branch's events are needed, and evaluation follows the same branch.
TEST(Evaluate, PerfMetricsRunVariableChoosesTheBranch) {
  auto model = testing::tiny_model();
  model.nodes.push_back(
      testing::make_node("Fields", "", 0, "PERF_METRICS.RETIRING / slots if perf_metrics else busy_slots / slots"));
  counts::Sample sample;
  sample.events["slots"] = exact(1000);
  sample.events["PERF_METRICS.RETIRING"] = exact(400);
  sample.events["busy_slots"] = exact(300);
  EXPECT_EQ(model::Dependencies(model, {false, false, true}).events_of("Fields"),
            (std::set<std::string>{"PERF_METRICS.RETIRING", "slots"}));
  EXPECT_EQ(model::Dependencies(model, {}).events_of("Fields"), (std::set<std::string>{"busy_slots", "slots"}));
  Options with_fields;
  with_fields.vars.perf_metrics = true;
  EXPECT_DOUBLE_EQ(*evaluate(model, {"Fields"}, sample, with_fields).find("Fields")->value, 0.4);
  EXPECT_DOUBLE_EQ(*evaluate(model, {"Fields"}, sample, {}).find("Fields")->value, 0.3);
}

// Haswell's Backend_Bound_Cycles definition uses the Fetch_Latency node.
TEST(Evaluate, DefinitionsMayUseNodes) {
  auto model = testing::tiny_model();
  model.definitions.emplace_back("BUSY_SHARE", expr::Expression::parse("Busy * 2 if Busy > 0.5 else 0"));
  model.nodes.push_back(testing::make_node("Doubled", "", 0, "BUSY_SHARE"));
  Evaluation e = evaluate(model, {"Doubled"}, busy_sample(), {});
  EXPECT_DOUBLE_EQ(*e.find("Doubled")->value, 1.5);
  EXPECT_EQ(model::Dependencies(model, {}).events_of("Doubled"), (std::set<std::string>{"busy_slots", "cycles"}));
}

TEST(Evaluate, BottleneckIsTheDeepestOverThresholdOnTheLargestPath) {
  auto model = testing::tiny_model();
  Evaluation e = evaluate(model, kAll, busy_sample(), {});
  ASSERT_NE(e.bottleneck(), nullptr);
  EXPECT_EQ(e.bottleneck()->node->name, "Busy_Memory");
  EXPECT_TRUE(e.find("Busy")->on_bottleneck_path);
  EXPECT_FALSE(e.find("Busy")->bottleneck);
  EXPECT_FALSE(e.find("Busy_Core")->on_bottleneck_path);
}

TEST(Evaluate, BottleneckStopsAtLevelOneWhenNoChildStandsOut) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events["mem_stalls"] = exact(40);  // Busy_Memory 0.0375: under; Busy_Core 0.7125 over
  Evaluation e = evaluate(model, kAll, s, {});
  EXPECT_EQ(e.bottleneck()->node->name, "Busy_Core");
  Evaluation only_level1 = evaluate(model, {"Busy", "Idle"}, s, {});
  EXPECT_EQ(only_level1.bottleneck()->node->name, "Busy");
}

// A reader that leaves nodes out (serve's omitted nodes) finds the
// bottleneck among the rest: a refused node is as unknown as an n/a one.
TEST(Evaluate, TheBottleneckPathAmongUsableNodes) {
  auto model = testing::tiny_model();
  const Evaluation e = evaluate(model, kAll, busy_sample(), {});
  const auto names = [&](const std::vector<size_t>& path) {
    std::vector<std::string> out;
    for (const size_t at : path) out.push_back(e.nodes[at].node->name);
    return out;
  };
  EXPECT_EQ(names(bottleneck_path(e.nodes)), (std::vector<std::string>{"Busy", "Busy_Memory"}));
  const auto refusing = [](const std::string& name) {
    return [name](const NodeResult& r) { return r.node->name != name; };
  };
  EXPECT_EQ(names(bottleneck_path(e.nodes, refusing("Busy_Memory"))), (std::vector<std::string>{"Busy", "Busy_Core"}));
  EXPECT_TRUE(bottleneck_path(e.nodes, refusing("Idle")).empty()) << "a level-1 node unknown: no path";
}

TEST(Evaluate, MissingEventsGiveNaNamingThem) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events.erase("mem_stalls");
  Evaluation e = evaluate(model, kAll, s, {});
  EXPECT_FALSE(e.find("Busy_Memory")->value.has_value());
  EXPECT_EQ(e.find("Busy_Memory")->missing_events, std::vector<std::string>{"mem_stalls"});
  EXPECT_FALSE(e.find("Busy_Core")->value.has_value());  // computed from an n/a node
  EXPECT_TRUE(e.find("Busy")->value.has_value());
}

TEST(Evaluate, ZeroCyclesIsNaAndWarnsOfADeadCounter) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events["cycles"] = exact(0);
  Evaluation e = evaluate(model, kAll, s, {});
  EXPECT_FALSE(e.find("Busy")->value.has_value());
  EXPECT_FALSE(e.find("IPC")->value.has_value());
  EXPECT_FALSE(e.level1_sum.has_value());
  ASSERT_EQ(e.warnings.size(), 1u);
  EXPECT_NE(e.warnings[0].find("cycles read 0"), std::string::npos);
  EXPECT_EQ(e.bottleneck(), nullptr);
}

TEST(Evaluate, MultiplexedCountsAreScaledAndFlagged) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events["mem_stalls"] = {300, 1000, 500};  // counted half the time: scaled to 600
  s.events["all_stalls"] = {80, 1000, 100};   // a tenth: scaled to 800, unreliable
  Evaluation e = evaluate(model, kAll, s, {});
  const NodeResult* memory = e.find("Busy_Memory");
  EXPECT_DOUBLE_EQ(*memory->value, 0.75 * 600 / 800);
  EXPECT_DOUBLE_EQ(memory->counted_share, 0.1);
  EXPECT_TRUE(memory->multiplexed);
  EXPECT_TRUE(memory->unreliable);
  EXPECT_FALSE(e.find("Busy")->multiplexed);
  EXPECT_DOUBLE_EQ(e.counted_share, 0.1);
}

TEST(Evaluate, LevelOneNotSummingToOneIsReported) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events["idle_slots"] = exact(2000);  // 0.75 + 0.5
  Evaluation e = evaluate(model, kAll, s, {});
  EXPECT_DOUBLE_EQ(*e.level1_sum, 1.25);
  ASSERT_FALSE(e.warnings.empty());
  EXPECT_NE(e.warnings[0].find("125.0%"), std::string::npos);
}

TEST(Evaluate, IdentityFormulaReplacesTheMeasuredOne) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events.erase("idle_slots");
  Options options;
  options.identities = {"Idle"};
  Evaluation e = evaluate(model, {"Busy", "Idle"}, s, options);
  EXPECT_DOUBLE_EQ(*e.find("Idle")->value, 0.25);
  EXPECT_TRUE(e.find("Idle")->missing_events.empty());
}

TEST(Evaluate, FractionsWithinRoundingOfTheRangeAreNotFlagged) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  const double slots = 4 * s.events.at("cycles").value;
  s.events["busy_slots"] = exact(slots * 1.0004);  // prints as 100.0%
  Evaluation e = evaluate(model, {"Busy"}, s, {});
  EXPECT_FALSE(e.find("Busy")->out_of_range);
  s.events["busy_slots"] = exact(slots * 1.0006);  // prints as 100.1%
  e = evaluate(model, {"Busy"}, s, {});
  EXPECT_TRUE(e.find("Busy")->out_of_range);
}

TEST(Evaluate, OutOfRangeFractionsAreFlaggedButKept) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events["busy_slots"] = exact(4100);
  s.events["mem_stalls"] = exact(900);  // more than all_stalls: Busy_Core = Busy - Busy_Memory < 0
  Evaluation e = evaluate(model, {"Busy", "Busy_Memory", "Busy_Core"}, s, {});
  EXPECT_TRUE(e.find("Busy")->out_of_range);
  EXPECT_DOUBLE_EQ(*e.find("Busy")->value, 1.025);
  EXPECT_TRUE(e.find("Busy_Core")->out_of_range);
  EXPECT_LT(*e.find("Busy_Core")->value, 0);
}

TEST(Evaluate, SmtTermsCountWithSmt) {
  auto model = testing::tiny_model();
  counts::Sample s = busy_sample();
  s.events["hyper_slots"] = exact(400);
  Options options;
  options.vars.smt_enabled = true;
  Evaluation e = evaluate(model, kAll, s, options);
  EXPECT_DOUBLE_EQ(*e.find("Hyper")->value, 0.1);
}

// A fallback chosen for Busy (an import without busy_slots): Busy and what is
// computed from it are approximate; the other nodes are not.
TEST(Evaluate, FallbackValuesAndWhatUsesThemAreApproximate) {
  auto model = testing::tiny_model();
  model.nodes.front().fallback = expr::Expression::parse("1 - idle_slots / SLOTS");
  counts::Sample s = busy_sample();
  s.events.erase("busy_slots");
  Options options;
  options.fallbacks = {"Busy"};
  Evaluation e = evaluate(model, kAll, s, options);
  EXPECT_DOUBLE_EQ(*e.find("Busy")->value, 0.75);
  EXPECT_TRUE(e.find("Busy")->approximate);
  EXPECT_TRUE(e.find("Busy")->missing_events.empty());
  EXPECT_DOUBLE_EQ(*e.find("Busy_Memory")->value, 0.75 * 600 / 800);
  EXPECT_TRUE(e.find("Busy_Memory")->approximate);
  EXPECT_TRUE(e.find("Busy_Core")->approximate);
  EXPECT_FALSE(e.find("Idle")->approximate);
  EXPECT_FALSE(e.find("IPC")->approximate);
  EXPECT_TRUE(e.find("Busy")->over_threshold);
  // Not chosen: the formula's missing event makes Busy n/a, and nothing is approximate.
  Evaluation strict = evaluate(model, kAll, s, {});
  EXPECT_FALSE(strict.find("Busy")->value);
  EXPECT_FALSE(strict.find("Busy")->approximate);
  EXPECT_EQ(strict.find("Busy")->missing_events, std::vector<std::string>{"busy_slots"});
  EXPECT_FALSE(strict.find("Busy_Core")->approximate);
}

// An n/a value whose events were all counted says which facts of the run it lacks.
TEST(Evaluate, NotApplicableValuesNameTheUnknownFactsTheyNeed) {
  auto model = testing::tiny_model();
  model.definitions.emplace_back("Busy_Cycles", expr::Expression::parse("Busy * cycles"));
  model.nodes.push_back(testing::make_node("Busy_Per_CPU", "", 0, "Busy_Cycles / #num_cpus_online"));
  model.nodes.push_back(testing::make_node("Cycles_Per_Second", "", 0, "cycles / interval-s"));
  model.nodes.push_back(testing::make_node("Idle_Ratio", "", 0, "idle_slots / (busy_slots - busy_slots)"));
  const std::vector<std::string> nodes{"Busy_Per_CPU", "Cycles_Per_Second", "Idle_Ratio"};
  counts::Sample sample = busy_sample();
  sample.duration_s = 0;  // counts without a duration
  const Evaluation unknown = evaluate(model, nodes, sample, {});
  EXPECT_FALSE(unknown.find("Busy_Per_CPU")->value);
  EXPECT_EQ(unknown.find("Busy_Per_CPU")->unknown_inputs, std::vector<std::string>{"#num_cpus_online"});
  EXPECT_FALSE(unknown.find("Cycles_Per_Second")->value);
  EXPECT_EQ(unknown.find("Cycles_Per_Second")->unknown_inputs, std::vector<std::string>{"interval-s"});
  EXPECT_FALSE(unknown.find("Idle_Ratio")->value);
  EXPECT_TRUE(unknown.find("Idle_Ratio")->unknown_inputs.empty());  // a division by zero, not an unknown fact

  Options known;
  known.vars.online_cpus = 4;
  sample.duration_s = 2;
  const Evaluation computed = evaluate(model, nodes, sample, known);
  EXPECT_DOUBLE_EQ(*computed.find("Busy_Per_CPU")->value, 0.75 * 1000 / 4);
  EXPECT_DOUBLE_EQ(*computed.find("Cycles_Per_Second")->value, 500);
  EXPECT_TRUE(computed.find("Busy_Per_CPU")->unknown_inputs.empty());
}

// A retire latency: the run's measured one, else the model's default, else
// unknown (n/a, naming it).
TEST(Evaluate, RetireLatenciesComeFromTheRunThenTheModel) {
  auto model = testing::tiny_model();
  model.retire_latencies.emplace("Retire_Latency_MEM_STALLS", model::RetireLatency{"MEM_STALLS", std::nullopt});
  model.retire_latencies.emplace("Retire_Latency_ALL_STALLS", model::RetireLatency{"ALL_STALLS", 12.5});
  model.nodes.push_back(testing::make_node("Mem_Cost", "", 0, "mem_stalls * Retire_Latency_MEM_STALLS / cycles"));
  model.nodes.push_back(testing::make_node("All_Cost", "", 0, "all_stalls * Retire_Latency_ALL_STALLS / cycles"));
  const std::vector<std::string> nodes{"Mem_Cost", "All_Cost"};

  const Evaluation defaults = evaluate(model, nodes, busy_sample(), {});
  EXPECT_FALSE(defaults.find("Mem_Cost")->value);
  EXPECT_EQ(defaults.find("Mem_Cost")->unknown_inputs, std::vector<std::string>{"Retire_Latency_MEM_STALLS"});
  EXPECT_DOUBLE_EQ(*defaults.find("All_Cost")->value, 800 * 12.5 / 1000);

  Options measured;
  measured.vars.retire_latencies = {{"Retire_Latency_MEM_STALLS", 30}, {"Retire_Latency_ALL_STALLS", 4}};
  const Evaluation computed = evaluate(model, nodes, busy_sample(), measured);
  EXPECT_DOUBLE_EQ(*computed.find("Mem_Cost")->value, 600 * 30.0 / 1000);
  EXPECT_DOUBLE_EQ(*computed.find("All_Cost")->value, 800 * 4.0 / 1000);
}

// An Evaluator folds the model once, however many samples it evaluates.
TEST(Evaluator, FoldsTheModelOnceForEverySample) {
  const auto model = testing::tiny_model();
  const std::uint64_t before = model::FoldedModel::built();
  const Evaluator evaluator(model, kAll, {});
  counts::Sample sample = busy_sample();
  for (int i = 1; i <= 1000; ++i) {
    sample.events["busy_slots"] = exact(4 * i % 1000);
    const Evaluation e = evaluator.evaluate(sample);
    ASSERT_DOUBLE_EQ(*e.find("Busy")->value, (4 * i % 1000) / 4000.0);
  }
  EXPECT_EQ(model::FoldedModel::built() - before, 1u);
}

}  // namespace
}  // namespace topdown::eval
