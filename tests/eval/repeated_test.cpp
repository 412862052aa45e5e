#include <gtest/gtest.h>

#include <cmath>

#include "eval/evaluate.h"
#include "support/tiny_model.h"

namespace topdown::eval {
namespace {

counts::Count exact(double value) { return {value, 1000, 1000}; }

// 1000 cycles, 4000 slots: Busy busy/4000, Idle the rest.
counts::Sample run_with(double busy_slots, double instructions) {
  counts::Sample s;
  s.events["cycles"] = exact(1000);
  s.events["busy_slots"] = exact(busy_slots);
  s.events["idle_slots"] = exact(4000 - busy_slots);
  s.events["mem_stalls"] = exact(600);
  s.events["all_stalls"] = exact(800);
  s.events["instructions"] = exact(instructions);
  return s;
}

const std::vector<std::string> kAll{"Busy", "Busy_Memory", "Busy_Core", "Idle", "Hyper", "IPC"};

// Busy 0.6, 0.3, 0.3: mean 0.4, standard deviation sqrt(0.03), 95% interval
// 0.4 +- t(0.975, 2) * sqrt(0.03) / sqrt(3) = 0.4 +- 4.302653 * 0.1.
TEST(Repeated, MeansSpreadsAndTheBottleneckOfTheMeans) {
  const auto model = testing::tiny_model();
  const Evaluator evaluator(model, kAll, {});
  std::vector<Evaluation> runs;
  counts::Sample total;
  for (const auto& [busy, instructions] : {std::pair{2400.0, 2500.0}, {1200.0, 100.0}, {1200.0, 100.0}}) {
    const counts::Sample run = run_with(busy, instructions);
    runs.push_back(evaluator.evaluate(run));
    for (const auto& [key, count] : run.events) total.add(key, count);
  }
  // Run 1 alone has Busy as its largest level-1 node (its bottleneck is under
  // it): the means have Idle.
  ASSERT_EQ(runs[0].bottleneck()->node->name, "Busy_Memory");
  const Evaluation summary = summarize_runs(evaluator, runs, total);
  EXPECT_EQ(summary.runs, 3);
  const NodeResult& busy = *summary.find("Busy");
  EXPECT_NEAR(*busy.value, 0.4, 1e-15);
  ASSERT_TRUE(busy.spread);
  EXPECT_EQ(busy.spread->runs, 3);
  EXPECT_NEAR(busy.spread->stddev, std::sqrt(0.03), 1e-15);
  EXPECT_NEAR(busy.spread->ci95_low, 0.4 - 0.4302653, 1e-6);
  EXPECT_NEAR(busy.spread->ci95_high, 0.4 + 0.4302653, 1e-6);
  EXPECT_FALSE(busy.spread->unstable);  // range 0.3 < 0.4
  EXPECT_NEAR(*summary.find("Idle")->value, 0.6, 1e-15);
  EXPECT_NEAR(*summary.find("Busy_Memory")->value, 0.4 * 0.75, 1e-15);
  EXPECT_NEAR(*summary.level1_sum, 1.0, 1e-15);
  EXPECT_EQ(summary.bottleneck()->node->name, "Idle");
  EXPECT_TRUE(summary.find("Idle")->over_threshold);
  // IPC 2.5, 0.1, 0.1: mean 0.9, the runs 2.4 apart.
  EXPECT_NEAR(*summary.find("IPC")->value, 0.9, 1e-15);
  EXPECT_TRUE(summary.find("IPC")->spread->unstable);
  // Hyper is 0 in every run (SMT off): no spread, not unstable.
  EXPECT_DOUBLE_EQ(summary.find("Hyper")->spread->stddev, 0);
  EXPECT_FALSE(summary.find("Hyper")->spread->unstable);
}

TEST(Repeated, ANodeNaInEveryRunStaysNa) {
  const auto model = testing::tiny_model();
  const Evaluator evaluator(model, kAll, {});
  counts::Sample no_instructions = run_with(2000, 0);
  no_instructions.events.erase("instructions");
  const std::vector<Evaluation> runs = {evaluator.evaluate(no_instructions), evaluator.evaluate(no_instructions)};
  const Evaluation summary = summarize_runs(evaluator, runs, no_instructions);
  EXPECT_FALSE(summary.find("IPC")->value);
  EXPECT_FALSE(summary.find("IPC")->spread);
  EXPECT_EQ(summary.find("IPC")->missing_events, std::vector<std::string>{"instructions"});
  EXPECT_DOUBLE_EQ(summary.find("Busy")->spread->stddev, 0);
}

}  // namespace
}  // namespace topdown::eval
