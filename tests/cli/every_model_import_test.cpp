// Every shipped model, end to end: a counts file holding every event its
// level-1 and level-2 nodes need gives a full tree at those levels (no n/a),
// with SMT off and on and, where the CPU has it, the PERF_METRICS register;
// each version of a model imported under its NAME@VERSION. A model without
// a tree (Clearwater Forest: Intel publishes none) gives its Info metrics.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "../support/temp_tree.h"
#include "model/dependencies.h"
#include "model/model.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

std::vector<std::string> shipped_models() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kModels)) {
    if (entry.path().extension() == ".model") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::set<std::string> upper_levels_events(const model::Model& model, const model::RunVariables& vars) {
  const model::Dependencies deps(model, vars);
  std::set<std::string> events;
  for (const model::Node& node : model.nodes) {
    if (!node.is_info && node.level <= 2) events.merge(std::set(deps.events_of(node.name)));
  }
  return events;
}

// Counts that make no denominator zero: distinct, from a fixed sequence.
std::string counts_file(const std::set<std::string>& events, bool smt, bool perf_metrics) {
  std::ostringstream out;
  out << "smt_enabled " << smt << "\nperf_metrics " << perf_metrics << "\ninterval-s 1.0\n";
  uint64_t state = 12345;
  for (const std::string& event : events) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    out << event << " " << 1'000'000 + (state >> 40) % 9'000'000 << "\n";
  }
  return out.str();
}

class EveryModelImport : public ::testing::TestWithParam<std::string> {};

std::set<std::string> info_events(const model::Model& model, const model::RunVariables& vars) {
  const model::Dependencies deps(model, vars);
  std::set<std::string> events;
  for (const model::Node& node : model.nodes) events.merge(std::set(deps.events_of(node.name)));
  return events;
}

TEST(EveryModelImport, AllShippedModelsAreChecked) {
  // 30 Intel models (4 of them the servers' versions before TMA 5.2), 2 AMD, 11 Arm.
  EXPECT_GE(shipped_models().size(), 43u);
}

TEST_P(EveryModelImport, GivesAFullTreeAtLevelsOneAndTwo) {
  const model::Model model = model::load_model(kModels / (GetParam() + ".model"));
  if (model.children("").empty()) GTEST_SKIP() << "no tree: EveryModelImport.ATreelessModelGivesItsInfoMetrics";
  for (const bool smt : {false, true}) {
    for (const bool perf_metrics : {false, true}) {
      SCOPED_TRACE(std::string(smt ? "smt on" : "smt off") + (perf_metrics ? ", perf_metrics" : ""));
      const auto events = upper_levels_events(model, {smt, false, perf_metrics});
      ASSERT_FALSE(events.empty());
      TempTree tree;
      const auto counts = tree.write("all.counts", counts_file(events, smt, perf_metrics)).string();
      const std::string out = tree.root().string() + "/report.json";
      auto r =
          run_command(kTopdown + " import --cpu " + model.versioned_name() + " -l 2 --json -o " + out + " " + counts);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const auto report = nlohmann::json::parse(slurp(out));
      EXPECT_EQ(report["model"]["tma_version"],
                model.version.empty() ? nlohmann::json() : nlohmann::json(model.version));
      int nodes = 0;
      for (const auto& node : report["nodes"]) {
        EXPECT_TRUE(node["value"].is_number()) << node.dump();
        ++nodes;
      }
      EXPECT_GE(nodes, 2);  // Neoverse N1's whole tree: frontend and backend stalled cycles
    }
  }
}

// Clearwater Forest: every Info metric that needs no machine size (which
// a counts file without them leaves n/a) has a value, and the report names
// no tree and no bottleneck.
TEST(EveryModelImport, ATreelessModelGivesItsInfoMetrics) {
  const model::Model model = model::select_model(kModels, {}, "cwf");
  ASSERT_TRUE(model.children("").empty());
  EXPECT_EQ(model.methodology, "no TMA tree published by Intel yet");
  const auto events = info_events(model, {false, false, false});
  TempTree tree;
  const auto counts = tree.write("all.counts", counts_file(events, false, false)).string();
  const std::string out = tree.root().string() + "/report.json";
  auto r = run_command(kTopdown + " import --cpu cwf --info --json -o " + out + " " + counts);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(slurp(out));
  EXPECT_TRUE(report["nodes"].empty());
  EXPECT_TRUE(report["bottleneck"].is_null());
  EXPECT_EQ(report["model"]["title"], "Intel Clearwater Forest (E-core server) (no TMA tree published by Intel yet)");
  int valued = 0;
  for (const auto& info : report["info"]) {
    if (info["unknown_inputs"].empty()) {
      EXPECT_TRUE(info["value"].is_number()) << info.dump();
      ++valued;
    }
  }
  EXPECT_GE(valued, 20);
  auto text = run_command(kTopdown + " import --cpu cwf --info " + counts);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.err.find("Intel Clearwater Forest (E-core server) (no TMA tree published by Intel yet) (cwf)"),
            std::string::npos)
      << text.err;
}

INSTANTIATE_TEST_SUITE_P(Shipped, EveryModelImport, ::testing::ValuesIn(shipped_models()),
                         [](const ::testing::TestParamInfo<std::string>& model) {
                           // A test name is letters, digits and '_': neoverse-v2 is neoverse_v2, spr@5.01 spr_5_01.
                           std::string name = model.param;
                           std::replace_if(
                               name.begin(), name.end(), [](char c) { return c == '-' || c == '@' || c == '.'; }, '_');
                           return name;
                         });

}  // namespace
}  // namespace topdown::testing
