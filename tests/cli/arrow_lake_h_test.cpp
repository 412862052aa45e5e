// Arrow Lake-H (family 6 model 0xC5): three core types, each with its own
// PMU and tree: Lion Cove P-cores on cpu_core (arl), Skymont E-cores on
// cpu_atom (arl_ecore) and Crestmont low-power E-cores on cpu_lowpower
// (arl_lpecore), from the fake sysfs and cpuinfo of a Core Ultra 9 285H
// (tests/data/sysfs-arl-h: P CPUs 0-5, E CPUs 6-13, LP E CPUs 14-15).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kArlH = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/sysfs-arl-h";

TEST(ArrowLakeH, StatPlansThreeCoreTypesOnThreePmus) {
  const CommandResult r = run_command(kTopdown + " stat --root " + kArlH + " --print-perf -- true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> commands = lines_starting(r.err, "perf stat -x,");
  ASSERT_EQ(commands.size(), 3u) << r.err;
  const std::string pmus[] = {"cpu_core", "cpu_atom", "cpu_lowpower"};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(commands[i].starts_with("perf stat -x, -o perf-" + pmus[i] + ".csv -e '")) << commands[i];
    for (size_t other = 0; other < 3; ++other) {
      EXPECT_EQ(commands[i].find(pmus[other] + "/") != std::string::npos, other == i) << commands[i];
    }
  }
  // The low-power E-cores' own events (Crestmont's TOPDOWN_* with 6 slots a cycle).
  EXPECT_NE(commands[2].find(",name=TOPDOWN_FE_BOUND.ALL_P/"), std::string::npos) << commands[2];
  EXPECT_NE(r.err.find("topdown import --cpu arl@5.1 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("topdown import --cpu arl_ecore@4 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("topdown import --cpu arl_lpecore@4 "), std::string::npos) << r.err;
}

TEST(ArrowLakeH, GroupsOfEachTreeOnItsPmuAndCpus) {
  const CommandResult r = run_command(kTopdown + " stat --root " + kArlH + " --print-groups");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t p_cores = r.err.find("model arl, P-core");
  const size_t e_cores = r.err.find("model arl_ecore, E-core");
  const size_t lp_cores = r.err.find("model arl_lpecore, LPE-core");
  ASSERT_NE(p_cores, std::string::npos) << r.err;
  ASSERT_NE(e_cores, std::string::npos) << r.err;
  ASSERT_NE(lp_cores, std::string::npos) << r.err;
  EXPECT_LT(p_cores, e_cores);
  EXPECT_LT(e_cores, lp_cores);
  EXPECT_NE(r.err.substr(lp_cores).find("[cpu_lowpower, "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.substr(lp_cores).find("[cpu_atom, "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.substr(e_cores, lp_cores - e_cores).find("[cpu_lowpower, "), std::string::npos) << r.err;
}

TEST(ArrowLakeH, InfoNamesTheThreeCoreTypes) {
  const CommandResult r = run_command(kTopdown + " info --root " + kArlH);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("model:          arl (Intel Arrow Lake"), std::string::npos) << all;
  EXPECT_NE(all.find(") on cpu_core\n"), std::string::npos) << all;
  EXPECT_NE(all.find("model:          arl_ecore (Intel Arrow Lake E-core (Skymont) (E-core TMA 4)) on cpu_atom\n"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("model:          arl_lpecore (Intel Arrow Lake-H low-power E-core (Crestmont) (E-core TMA 4)) "
                     "on cpu_lowpower\n"),
            std::string::npos)
      << all;
}

// A perf stat file of the three types (cpu_core/, cpu_atom/, cpu_lowpower/
// rows): P-core level 1 from the PERF_METRICS fields over their sum, the
// E-cores' over 8 slots a cycle, the low-power E-cores' over 6.
std::string row(double value, const std::string& event) {
  return std::to_string(static_cast<long long>(value)) + ",," + event + ",1000000000,100.00,,\n";
}

const std::string kThreeTypesFile =
    "# started on Mon Jan  6 10:00:00 2025\n\n" + row(2040e6, "cpu_core/slots/") +
    row(480e6, "cpu_core/topdown-retiring/") + row(120e6, "cpu_core/topdown-bad-spec/") +
    row(640e6, "cpu_core/topdown-fe-bound/") + row(800e6, "cpu_core/topdown-be-bound/") +
    row(0, "cpu_core/INT_MISC.UOP_DROPPING/") + row(3e6, "cpu_core/CPU_CLK_UNHALTED.THREAD/") +
    row(1e6, "cpu_atom/CPU_CLK_UNHALTED.CORE/") + row(2e6, "cpu_atom/TOPDOWN_FE_BOUND.ALL/") +
    row(1e6, "cpu_atom/TOPDOWN_BAD_SPECULATION.ALL_P/") + row(3e6, "cpu_atom/TOPDOWN_BE_BOUND.ALL_P/") +
    row(2e6, "cpu_atom/TOPDOWN_RETIRING.ALL/") + row(1e6, "cpu_lowpower/CPU_CLK_UNHALTED.CORE/") +
    row(1.8e6, "cpu_lowpower/TOPDOWN_FE_BOUND.ALL_P/") + row(0.6e6, "cpu_lowpower/TOPDOWN_BAD_SPECULATION.ALL_P/") +
    row(2.4e6, "cpu_lowpower/TOPDOWN_BE_BOUND.ALL_P/") + row(1.2e6, "cpu_lowpower/TOPDOWN_RETIRING.ALL_P/") +
    "5000000000,ns,duration_time,5000000000,100.00,,\n";

std::optional<double> value_of(const nlohmann::json& report, const std::string& name) {
  for (const auto& entry : report.at("nodes")) {
    if (entry["name"] == name && entry["value"].is_number()) return entry["value"].get<double>();
  }
  return std::nullopt;
}

TEST(ArrowLakeH, ImportGivesEachOfTheThreeCoreTypesItsTree) {
  TempTree tree;
  const std::string file = tree.write("perf.csv", kThreeTypesFile).string();
  const CommandResult r = run_command(kTopdown + " import --root " + kArlH + " --smt off -l 1 --json " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<nlohmann::json> reports;
  std::istringstream in(r.err);
  for (std::string line; std::getline(in, line);) reports.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(reports.size(), 3u) << r.err;
  const std::string types[] = {"P-core", "E-core", "LPE-core"};
  const std::string models[] = {"arl", "arl_ecore", "arl_lpecore"};
  // Each type's cycles over the three types' 5e6.
  const double shares[] = {0.6, 0.2, 0.2};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(reports[i]["core_type"], types[i]);
    EXPECT_EQ(reports[i]["model"]["name"], models[i]);
    EXPECT_DOUBLE_EQ(reports[i]["core_share"].get<double>(), shares[i]);
  }
  const double fields = 480e6 + 120e6 + 640e6 + 800e6;
  EXPECT_NEAR(*value_of(reports[0], "Frontend_Bound"), 640e6 / fields, 1e-12);
  EXPECT_NEAR(*value_of(reports[0], "Backend_Bound"), 800e6 / fields, 1e-12);
  EXPECT_NEAR(*value_of(reports[1], "Frontend_Bound"), 2e6 / 8e6, 1e-12);
  EXPECT_NEAR(*value_of(reports[1], "Retiring"), 2e6 / 8e6, 1e-12);
  // The low-power E-cores: 6 slots a cycle (Crestmont), their own rows only.
  EXPECT_NEAR(*value_of(reports[2], "Frontend_Bound"), 1.8e6 / 6e6, 1e-12);
  EXPECT_NEAR(*value_of(reports[2], "Bad_Speculation"), 0.6e6 / 6e6, 1e-12);
  EXPECT_NEAR(*value_of(reports[2], "Backend_Bound"), 2.4e6 / 6e6, 1e-12);
  EXPECT_NEAR(*value_of(reports[2], "Retiring"), 1.2e6 / 6e6, 1e-12);
}

TEST(ArrowLakeH, ImportTextAndCsvNameTheThirdCoreType) {
  TempTree tree;
  const std::string file = tree.write("perf.csv", kThreeTypesFile).string();
  const std::string import = kTopdown + " import --root " + kArlH + " --smt off -l 1 ";
  const CommandResult text = run_command(import + file);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.err.find("\n=== LPE-core: 20.0% of the cycles ===\n"), std::string::npos) << text.err;
  const CommandResult csv = run_command(import + "--csv " + file);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.err.find("\nLPE-core,0.2,node,Frontend_Bound,1,,,0.3,"), std::string::npos) << csv.err;
}

TEST(ArrowLakeH, ListShowsTheLowPowerModel) {
  const CommandResult r = run_command(kTopdown + " list --models");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("arl_lpecore"), std::string::npos) << all;
}

}  // namespace
}  // namespace topdown::testing
