// perf stat -x files of a hybrid CPU (Alder Lake): rows cpu_core/EVENT/ for
// the P-cores and cpu_atom/EVENT/ for the E-cores, written by hand. Each core
// type gets its own tree, computed here from the file's numbers: the P-core
// level 1 as each PERF_METRICS field over their sum, the E-core level 1 as
// each TOPDOWN_*.ALL over 5 slots a cycle, and each type's share as its
// cycles over both types' cycles.
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

// P-cores: the PERF_METRICS fields and the slots, no uops dropped (so level
// 1 is the fields' arithmetic alone), their cycles.
constexpr double kPSlots = 2040e6, kPRetiring = 480e6, kPBadSpec = 120e6, kPFrontend = 640e6, kPBackend = 800e6;
constexpr double kPCycles = 3e6;
// E-cores: 5 slots a cycle.
constexpr double kECycles = 1e6, kEFrontend = 1.5e6, kEBackend = 2e6, kERetiring = 1e6;
constexpr double kESlots = 5 * kECycles;

std::string row(const std::string& place, double value, const std::string& event) {
  std::ostringstream out;
  out << place << (place.empty() ? "" : ",") << static_cast<long long>(value) << ",," << event
      << ",1000000000,100.00,,\n";
  return out.str();
}

std::string p_core_rows(const std::string& place, double share = 1) {
  return row(place, kPSlots * share, "cpu_core/slots/") + row(place, kPRetiring * share, "cpu_core/topdown-retiring/") +
         row(place, kPBadSpec * share, "cpu_core/topdown-bad-spec/") +
         row(place, kPFrontend * share, "cpu_core/topdown-fe-bound/") +
         row(place, kPBackend * share, "cpu_core/topdown-be-bound/") +
         row(place, 0, "cpu_core/INT_MISC.UOP_DROPPING/") +
         row(place, kPCycles * share, "cpu_core/CPU_CLK_UNHALTED.THREAD/");
}

std::string e_core_rows(const std::string& place, double share = 1) {
  return row(place, kECycles * share, "cpu_atom/CPU_CLK_UNHALTED.CORE/") +
         row(place, kEFrontend * share, "cpu_atom/TOPDOWN_FE_BOUND.ALL/") +
         row(place, kEBackend * share, "cpu_atom/TOPDOWN_BE_BOUND.ALL/") +
         row(place, kERetiring * share, "cpu_atom/TOPDOWN_RETIRING.ALL/");
}

const std::string kHybridFile = "# started on Mon Jan  6 10:00:00 2025\n\n" + p_core_rows("") + e_core_rows("") +
                                "5000000000,ns,duration_time,5000000000,100.00,,\n";

class HybridImport : public ::testing::Test {
 protected:
  CommandResult import(const std::string& args, const std::string& perf_file) {
    const auto file = tree_.write("perf.csv", perf_file).string();
    return run_command(kTopdown + " import --cpu adl --smt off " + args + " " + file);
  }

  // One JSON object per line.
  std::vector<nlohmann::json> import_json(const std::string& args, const std::string& perf_file) {
    const CommandResult r = import("--json " + args, perf_file);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<nlohmann::json> objects;
    std::istringstream in(r.err);
    for (std::string line; std::getline(in, line);) objects.push_back(nlohmann::json::parse(line));
    return objects;
  }

  TempTree tree_;
};

std::optional<double> value_of(const nlohmann::json& report, const std::string& name) {
  for (const auto& entry : report.at("nodes")) {
    if (entry["name"] == name && entry["value"].is_number()) return entry["value"].get<double>();
  }
  return std::nullopt;
}

void expect_p_core_level_one(const nlohmann::json& report) {
  const double fields = kPRetiring + kPBadSpec + kPFrontend + kPBackend;
  EXPECT_NEAR(*value_of(report, "Frontend_Bound"), kPFrontend / fields, 1e-12);
  EXPECT_NEAR(*value_of(report, "Backend_Bound"), kPBackend / fields, 1e-12);
  EXPECT_NEAR(*value_of(report, "Retiring"), kPRetiring / fields, 1e-12);
  EXPECT_NEAR(*value_of(report, "Bad_Speculation"), kPBadSpec / fields, 1e-12);
}

void expect_e_core_level_one(const nlohmann::json& report) {
  EXPECT_NEAR(*value_of(report, "Frontend_Bound"), kEFrontend / kESlots, 1e-12);
  EXPECT_NEAR(*value_of(report, "Backend_Bound"), kEBackend / kESlots, 1e-12);
  EXPECT_NEAR(*value_of(report, "Retiring"), kERetiring / kESlots, 1e-12);
  EXPECT_NEAR(*value_of(report, "Bad_Speculation"), (kESlots - kEFrontend - kEBackend - kERetiring) / kESlots, 1e-12);
}

TEST_F(HybridImport, OneTreePerCoreTypeWithItsShareOfTheCycles) {
  const std::vector<nlohmann::json> reports = import_json("", kHybridFile);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0]["core_type"], "P-core");
  EXPECT_EQ(reports[0]["model"]["name"], "adl");
  EXPECT_DOUBLE_EQ(reports[0]["core_share"].get<double>(), kPCycles / (kPCycles + kECycles));
  expect_p_core_level_one(reports[0]);
  EXPECT_EQ(reports[1]["core_type"], "E-core");
  EXPECT_EQ(reports[1]["model"]["name"], "adl_ecore");
  EXPECT_DOUBLE_EQ(reports[1]["core_share"].get<double>(), kECycles / (kPCycles + kECycles));
  expect_e_core_level_one(reports[1]);
}

TEST_F(HybridImport, TextHasAHeadingPerCoreTypeAndCsvACoreTypeColumn) {
  const CommandResult text = import("", kHybridFile);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.err.find("=== P-core: 75.0% of the cycles ===\n"), 0u) << text.err;
  EXPECT_NE(text.err.find("\n=== E-core: 25.0% of the cycles ===\n"), std::string::npos) << text.err;

  const CommandResult csv = import("--csv", kHybridFile);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.err.rfind("core_type,core_share,kind,name,", 0), 0u) << csv.err;
  EXPECT_NE(csv.err.find("\nP-core,0.75,node,Frontend_Bound,"), std::string::npos) << csv.err;
  EXPECT_NE(csv.err.find("\nE-core,0.25,node,Frontend_Bound,1,,,0.3,"), std::string::npos) << csv.err;
}

TEST_F(HybridImport, PerCpuRowsAddUpWithinEachCoreType) {
  // -A: two P-cores and two E-cores, each a share of the totals above.
  const std::string per_cpu =
      p_core_rows("CPU0", 0.25) + p_core_rows("CPU1", 0.75) + e_core_rows("CPU8", 0.5) + e_core_rows("CPU9", 0.5);
  const std::vector<nlohmann::json> reports = import_json("", per_cpu);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_DOUBLE_EQ(reports[0]["core_share"].get<double>(), kPCycles / (kPCycles + kECycles));
  expect_p_core_level_one(reports[0]);
  expect_e_core_level_one(reports[1]);

  // One report per CPU, each under its core type.
  const std::vector<nlohmann::json> units = import_json("--per-thread", per_cpu);
  ASSERT_EQ(units.size(), 4u);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"P-core", "CPU0"}, {"P-core", "CPU1"}, {"E-core", "CPU8"}, {"E-core", "CPU9"}};
  for (size_t i = 0; i < units.size(); ++i) {
    EXPECT_EQ(units[i]["core_type"], expected[i].first);
    EXPECT_EQ(units[i]["scope"], expected[i].second);
    EXPECT_TRUE(units[i]["core_share"].is_null());
  }
  expect_e_core_level_one(units[3]);
}

TEST_F(HybridImport, ACoreTypeTheTaskNeverRanOnIsLeftOut) {
  std::string p_cores_only = p_core_rows("");
  for (const char* event : {"CPU_CLK_UNHALTED.CORE", "TOPDOWN_FE_BOUND.ALL"}) {
    p_cores_only += std::string("<not counted>,,cpu_atom/") + event + "/,0,0.00,,\n";
  }
  const std::vector<nlohmann::json> reports = import_json("", p_cores_only);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0]["core_type"], "P-core");
  EXPECT_DOUBLE_EQ(reports[0]["core_share"].get<double>(), 1.0);
}

TEST_F(HybridImport, AModelWithoutCoreTypesNamesWhatToDo) {
  const auto file = tree_.write("perf.csv", kHybridFile).string();
  const CommandResult r = run_command(kTopdown + " import --cpu icl " + file);
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("cpu_atom and cpu_core, the core types of a hybrid CPU"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--cpu adl"), std::string::npos) << r.err;
}

TEST_F(HybridImport, TheECoreModelAloneReadsTheECoreRows) {
  const auto file = tree_.write("perf.csv", kHybridFile).string();
  const CommandResult r = run_command(kTopdown + " import --json --cpu adl_ecore " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.err);
  EXPECT_EQ(report["core_type"], "E-core");
  expect_e_core_level_one(report);
}

}  // namespace
}  // namespace topdown::testing
