// Ice Lake and later without the PERF_METRICS register (--perf-metrics off):
// the plan names none of its fields, nor the fixed slots counter that comes
// with it, and a perf file of exactly the planned events imports to a full
// level 1-2 tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/model.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

// The perf stat line of the model's own (P-core) PMU.
std::string own_perf_line(const std::string& plan) {
  std::istringstream lines(plan);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("perf stat") &&
        (line.find("-o perf.csv ") != std::string::npos || line.find("-o perf-cpu_core.csv ") != std::string::npos)) {
      return line;
    }
  }
  return "";
}

std::vector<std::string> event_names(const std::string& perf_line) {
  std::vector<std::string> names;
  const std::regex named("name=([^/]+)/|,(msr/tsc/)");
  for (std::sregex_iterator it(perf_line.begin(), perf_line.end(), named), end; it != end; ++it) {
    names.push_back((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
  }
  return names;
}

int upper_level_nodes(const model::Model& model) {
  return static_cast<int>(std::count_if(model.nodes.begin(), model.nodes.end(),
                                        [](const model::Node& node) { return !node.is_info && node.level <= 2; }));
}

class GeneralCountersPlan : public ::testing::TestWithParam<std::string> {};

TEST_P(GeneralCountersPlan, NamesNoPerfMetricsEventAndImportsToAFullTree) {
  const std::string cpu = GetParam();
  const auto plan = run_command(kTopdown + " stat --cpu " + cpu + " --perf-metrics off -l 2 --print-perf -- true");
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const std::vector<std::string> names = event_names(own_perf_line(plan.err));
  ASSERT_GE(names.size(), 6u) << plan.err;
  for (const std::string& name : names) {
    EXPECT_FALSE(name.starts_with("PERF_METRICS.")) << name;
    EXPECT_FALSE(name.starts_with("topdown-")) << name;
    EXPECT_NE(name, "TOPDOWN.SLOTS") << "fixed counter 3 goes with the register";
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "TOPDOWN.SLOTS_P"), names.end());

  const std::string dir = ::testing::TempDir() + "/general_counters_" + cpu + "_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  {
    std::ofstream perf_file(dir + "/perf.csv");
    perf_file << "# started on Sat Nov 28 10:00:00 2026\n\n";
    for (size_t i = 0; i < names.size(); ++i) {
      // The slots the largest count, so that the level-1 shares leave room for bad speculation.
      const long value =
          names[i].starts_with("TOPDOWN.SLOTS_P") ? 100'000'000 : 1'000'000 + static_cast<long>(i) * 7919;
      perf_file << value << ",," << names[i] << ",2000000000,100.00,,\n";
    }
  }
  const auto imported = run_command(kTopdown + " import --cpu " + cpu + " --perf-metrics off -l 2 --json -o " + dir +
                                    "/report.json " + dir + "/perf.csv");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const auto report = nlohmann::json::parse(slurp(dir + "/report.json"));
  EXPECT_EQ(static_cast<int>(report["nodes"].size()), upper_level_nodes(model::load_model(kModels / (cpu + ".model"))));
  for (const auto& node : report["nodes"]) {
    SCOPED_TRACE(node["name"].get<std::string>());
    EXPECT_TRUE(node["value"].is_number()) << node.dump();
    EXPECT_TRUE(node["missing_events"].empty()) << node["missing_events"];
  }
  std::filesystem::remove_all(dir);
}

// A model with a node read from the register only cannot honour the option:
// stat and import refuse it, naming the node and the field, and the level
// above that node still plans and imports.
TEST(GeneralCountersPlan, RefusedWhereAModelHasNoGeneralCounterFormula) {
  const std::string dir = ::testing::TempDir() + "/register_only_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::filesystem::create_directory_symlink(kModels / "events", dir + "/events");
  {
    std::ofstream model(dir + "/icl.model");
    model << slurp((kModels / "icl.model").string())
          << "\n[node Register_Only]\nparent = Frontend_Bound\nformula = PERF_METRICS.FETCH_LATENCY / TOPDOWN.SLOTS\n";
    std::ofstream counts(dir + "/counts.txt");
    counts << "smt_enabled 0\nTOPDOWN.SLOTS_P 1000\n";
  }
  const std::string refusal =
      "topdown: --perf-metrics off: model icl reads Register_Only from Intel's PERF_METRICS register only "
      "(PERF_METRICS.FETCH_LATENCY), with no general-counter formula; leave out --perf-metrics off, or -l 1\n";
  // The models folder holds only the changed icl model.
  const std::string topdown = "TOPDOWN_MODELS=" + dir + " " + kTopdown;
  const std::string model = " --cpu icl --perf-metrics off ";
  const auto stat = run_command(topdown + " stat" + model + "-l 2 --print-perf -- true");
  EXPECT_EQ(stat.exit_code, 125);
  EXPECT_EQ(stat.err, refusal);
  const auto imported =
      run_command(topdown + " import" + model + "-l 2 -o " + dir + "/report.txt " + dir + "/counts.txt");
  EXPECT_EQ(imported.exit_code, 125);
  EXPECT_EQ(imported.err, refusal);
  EXPECT_FALSE(std::filesystem::exists(dir + "/report.txt"));
  EXPECT_EQ(run_command(topdown + " stat" + model + "-l 1 --print-perf -- true").exit_code, 0);
  std::filesystem::remove_all(dir);
}

// --perf-metrics on where the model has no register to read: refused, never
// ignored, by stat and import alike.
TEST(GeneralCountersPlan, OnIsRefusedWhereTheModelHasNoRegister) {
  const std::string refusal =
      "topdown: --perf-metrics on: model skl reads none of the nodes chosen from Intel's PERF_METRICS register (its "
      "CPU has none, or these nodes come from general counters only); leave out --perf-metrics on\n";
  const auto stat = run_command(kTopdown + " stat --cpu skl --perf-metrics on --print-perf -- true");
  EXPECT_EQ(stat.exit_code, 125);
  EXPECT_EQ(stat.err, refusal);
  const std::string counts = ::testing::TempDir() + "/skl_counts_" + std::to_string(::getpid()) + ".txt";
  std::ofstream(counts) << "CPU_CLK_UNHALTED.THREAD 1000\n";
  const auto imported = run_command(kTopdown + " import --cpu skl --perf-metrics on " + counts);
  EXPECT_EQ(imported.exit_code, 125);
  EXPECT_EQ(imported.err, refusal);
  std::filesystem::remove(counts);
  EXPECT_EQ(run_command(kTopdown + " stat --cpu icl --perf-metrics on --print-perf -- true").exit_code, 0);
}

INSTANTIATE_TEST_SUITE_P(IceLakeAndLater, GeneralCountersPlan,
                         ::testing::Values("icl", "rkl", "tgl", "icx", "spr", "sprhbm", "emr", "gnr", "adl", "mtl",
                                           "lnl", "arl"));

}  // namespace
}  // namespace topdown::testing
