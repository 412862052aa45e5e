// Multiplexing on a real PMU: a steady workload counted with two rotating
// groups gives every node within 3 points of the same nodes counted without
// rotation (--no-multiplex: one run per group). Skipped without a PMU.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "collect/collect.h"
#include "common/data_dir.h"
#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "model/model.h"
#include "schedule/plan.h"

namespace topdown::eval {
namespace {

// The target machines count with 5 general counters.
constexpr int kCountersPerGroup = 5;
constexpr double kTolerance = 0.03;

TEST(MultiplexLive, RotatingGroupsAgreeWithOneRunPerGroup) {
#ifndef TOPDOWN_DEMO_BIN
  GTEST_SKIP() << "built without the topdown-demo workload";
#else
  if (!collect::pmu_available()) {
    GTEST_SKIP() << "this machine has no core PMU (a VM without a virtual PMU?): nothing to multiplex";
  }
  const cpu::CpuInfo cpu = cpu::detect();
  if (!cpu.working_counters || *cpu.working_counters < 1) {
    GTEST_SKIP() << "the counter health check could not run here (perf_event_paranoid or no counters)";
  }
  const model::Model model = model::select_model(models_dir(), cpu.id, "");
  const events::Resolver resolver(events::resolver_config(model, cpu));
  model::RunVariables vars;
  vars.smt_enabled = cpu.smt_enabled;
  vars.perf_metrics = cpu.topdown_metrics;
  schedule::CounterBudget budget;
  budget.general = std::min(kCountersPerGroup, *cpu.working_counters);
  budget.fixed = model.cpus.front().vendor == cpu::Vendor::Intel ? 3 : 0;

  // The shallowest tree whose events need exactly two groups.
  std::optional<schedule::Plan> plan;
  for (int level = 1; level <= 6 && !plan; ++level) {
    schedule::Selection selection;
    selection.max_level = level;
    schedule::Plan candidate = schedule::make_plan(model, vars, selection, resolver, budget);
    if (candidate.core_groups() == 2) plan = std::move(candidate);
  }
  if (!plan) GTEST_SKIP() << "no level of " << model.name << " needs two groups of " << budget.general << " counters";

  std::vector<collect::CounterGroup> groups;
  for (const auto& group : plan->groups) groups.push_back({group.events});
  const collect::Target target{{TOPDOWN_DEMO_BIN, "alu"}, {}, {}, {}};
  const collect::WorkloadResult rotating = collect::collect(target, groups, collect::Options{});
  const collect::CombinedRuns separate =
      collect::run_once_each(target, collect::one_group_a_run(groups), collect::Options{});
  ASSERT_EQ(rotating.exit_code, 0);

  Options options;
  options.vars = vars;
  options.identities = plan->identities;
  options.node_groups = plan->node_groups;
  const Evaluation multiplexed = evaluate(model, plan->nodes, rotating.sample, options);
  const Evaluation exact = evaluate(model, plan->nodes, separate.result.sample, options);
  EXPECT_LT(multiplexed.counted_share, 1.0) << "the two groups did not rotate";
  int compared = 0;
  for (const NodeResult& node : exact.nodes) {
    if (node.node->is_info || !node.value) continue;
    const NodeResult* rotated = multiplexed.find(node.node->name);
    ASSERT_NE(rotated, nullptr);
    ASSERT_TRUE(rotated->value) << node.node->name << " is n/a when multiplexed";
    EXPECT_NEAR(*rotated->value, *node.value, kTolerance) << node.node->name;
    ++compared;
  }
  EXPECT_GT(compared, 0);
#endif
}

}  // namespace
}  // namespace topdown::eval
