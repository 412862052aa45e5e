#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "import/import.h"

namespace topdown::import {
namespace {

counts::Sample sample_of(const std::vector<std::string>& events) {
  counts::Sample sample;
  for (const auto& event : events) sample.events[event] = counts::Count{1, 1, 1};
  return sample;
}

std::shared_ptr<const model::FoldedModel> folded(const model::Model& model, const model::RunVariables& vars) {
  return std::make_shared<const model::FoldedModel>(model, vars);
}

const std::vector<std::string> kLevel1 = {"Frontend_Bound", "Bad_Speculation", "Backend_Bound", "SMT_Contention",
                                          "Retiring"};

TEST(Selection, IdentityWhenTheFileLacksTheNodesOwnEvents) {
  const auto model = model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "zen5.model");
  const auto without_backend = sample_of(
      {"ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend", "de_src_op_disp.all", "ex_ret_ops"});
  EXPECT_EQ(identities_for(folded(model, {}), kLevel1, without_backend), model::IdentityChoice{"Backend_Bound"});
  auto complete = without_backend;
  complete.events["de_no_dispatch_per_slot.backend_stalls"] = counts::Count{1, 1, 1};
  EXPECT_TRUE(identities_for(folded(model, {}), kLevel1, complete).empty());
  // Without the events of the other level-1 nodes the identity does not help either.
  EXPECT_TRUE(identities_for(folded(model, {}), kLevel1, sample_of({"ls_not_halted_cyc"})).empty());
}

TEST(Selection, InfoMetricsWhoseEventsTheFileHas) {
  const auto model = model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "zen5.model");
  EXPECT_EQ(info_metrics_counted(folded(model, {}), {}, sample_of({"ls_not_halted_cyc", "ex_ret_instr"})),
            (std::vector<std::string>{"IPC", "CPI"}));
  EXPECT_TRUE(info_metrics_counted(folded(model, {}), {}, sample_of({"ex_ret_instr"})).empty());
}

// perf stat --topdown on Ice Lake: the PERF_METRICS fields and slots only.
TEST(Selection, FallbackWhenTheFileLacksTheCorrectionEvents) {
  const auto model = model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "icl.model");
  model::RunVariables vars;
  vars.perf_metrics = true;
  auto sample = sample_of({"TOPDOWN.SLOTS", "PERF_METRICS.FRONTEND_BOUND", "PERF_METRICS.BAD_SPECULATION",
                           "PERF_METRICS.BACKEND_BOUND", "PERF_METRICS.RETIRING"});
  const FallbackChoice chosen = fallbacks_for(folded(model, vars), {}, sample);
  EXPECT_EQ(chosen.nodes, (model::FallbackChoice{"Backend_Bound", "Frontend_Bound"}));
  EXPECT_EQ(chosen.missing_events, (std::set<std::string>{"INT_MISC.CLEARS_COUNT", "INT_MISC.UOP_DROPPING"}));
  // With them the model's own formulas are used.
  sample.events["INT_MISC.UOP_DROPPING"] = counts::Count{1, 1, 1};
  sample.events["INT_MISC.CLEARS_COUNT"] = counts::Count{1, 1, 1};
  EXPECT_TRUE(fallbacks_for(folded(model, vars), {}, sample).nodes.empty());
  // Without the fields the fallback does not help either.
  EXPECT_TRUE(fallbacks_for(folded(model, vars), {}, sample_of({"TOPDOWN.SLOTS"})).nodes.empty());
}

}  // namespace
}  // namespace topdown::import
