// Per-core values of Haswell with SMT on, from two threads' counts: the
// `_ANY` events count the whole core on each thread, and the formulas halve
// them, so the plain sum of a core's CPUs gives the core's values.
#include <gtest/gtest.h>

#include "aggregate/aggregate.h"
#include "eval/evaluate.h"
#include "model/model.h"

namespace topdown::aggregate {
namespace {

const std::filesystem::path kHaswell = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "hsw.model";

counts::Count exact(double value) { return {value, 1000, 1000}; }

// One core (CPU0 and its sibling CPU2) running 10000 cycles; each thread's
// CPU_CLK_UNHALTED.THREAD_ANY sees the whole core's cycles.
std::vector<counts::Place> two_threads() {
  counts::Place first{"CPU0", {}};
  first.sample.events["CPU_CLK_UNHALTED.THREAD_ANY"] = exact(10000);
  first.sample.events["CPU_CLK_UNHALTED.THREAD"] = exact(6000);
  first.sample.events["IDQ_UOPS_NOT_DELIVERED.CORE"] = exact(8000);
  counts::Place second{"CPU2", {}};
  second.sample.events["CPU_CLK_UNHALTED.THREAD_ANY"] = exact(10000);
  second.sample.events["CPU_CLK_UNHALTED.THREAD"] = exact(7000);
  second.sample.events["IDQ_UOPS_NOT_DELIVERED.CORE"] = exact(4000);
  return {first, second};
}

double frontend_bound(const model::Model& model, const counts::Sample& sample) {
  eval::Options options;
  options.vars.smt_enabled = true;
  const eval::Evaluation e = eval::evaluate(model, {"Frontend_Bound"}, sample, options);
  return *e.find("Frontend_Bound")->value;
}

TEST(HaswellPerCore, FrontendBoundOfACoreIsItsUndeliveredSlotsOverItsSlots) {
  const model::Model model = model::load_model(kHaswell);
  const Topology topology({{0, {0, 0}}, {2, {0, 0}}});
  Request request;
  request.view = View::Core;
  request.topology = &topology;
  const Aggregation cores = aggregate(two_threads(), request);
  ASSERT_EQ(cores.units.size(), 1u);
  EXPECT_EQ(cores.units[0].label, "S0-C0");
  // By hand from the specification: Frontend_Bound =
  // IDQ_UOPS_NOT_DELIVERED.CORE / (Pipeline_Width * CORE_CLKS), CORE_CLKS =
  // CPU_CLK_UNHALTED.THREAD_ANY / 2 with SMT. The core issued for 10000
  // cycles, 4 slots each; its threads left 8000 + 4000 of them empty.
  EXPECT_DOUBLE_EQ(frontend_bound(model, cores.units[0].sample), (8000.0 + 4000.0) / (4 * 10000.0));

  // Each thread takes its share of the core's slots: half of them.
  request.view = View::Thread;
  const Aggregation threads = aggregate(two_threads(), request);
  EXPECT_DOUBLE_EQ(frontend_bound(model, threads.units[0].sample), 8000.0 / (4 * 10000.0 / 2));
  EXPECT_DOUBLE_EQ(frontend_bound(model, threads.units[1].sample), 4000.0 / (4 * 10000.0 / 2));
}

}  // namespace
}  // namespace topdown::aggregate
