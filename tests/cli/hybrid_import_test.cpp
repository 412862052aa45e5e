// perf stat -x files of a hybrid CPU (Alder Lake): rows cpu_core/EVENT/ for
// the P-cores and cpu_atom/EVENT/ for the E-cores, written by hand. Each core
// type gets its own tree, computed here from the file's numbers: the P-core
// level 1 as each PERF_METRICS field over their sum, the E-core level 1 as
// each TOPDOWN_*.ALL over 5 slots a cycle, and each type's share as its
// cycles over both types' cycles.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <map>
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

// The words of a line of the columns view.
std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

// The expected words of a columns line's core type block: the share, then
// level 1 by the header's names, then the bottleneck (any name).
void expect_block(const std::vector<std::string>& header, const std::vector<std::string>& row, size_t first,
                  const std::string& share, const std::map<std::string, std::string>& level_one) {
  ASSERT_LT(first + level_one.size() + 1, row.size());
  EXPECT_EQ(row[first], share) << header[first + 1];
  for (size_t i = 1; i <= level_one.size(); ++i) {
    const std::string& node = header[first + 1 + i];
    ASSERT_TRUE(level_one.count(node)) << node;
    EXPECT_EQ(row[first + i], level_one.at(node)) << node;
  }
}

const std::map<std::string, std::string> kPLevelOne = {{"Frontend_Bound", percent(kPFrontend / kPSlots)},
                                                       {"Bad_Speculation", percent(kPBadSpec / kPSlots)},
                                                       {"Backend_Bound", percent(kPBackend / kPSlots)},
                                                       {"Retiring", percent(kPRetiring / kPSlots)}};
const std::map<std::string, std::string> kELevelOne = {
    {"Frontend_Bound", percent(kEFrontend / kESlots)},
    {"Bad_Speculation", percent((kESlots - kEFrontend - kEBackend - kERetiring) / kESlots)},
    {"Backend_Bound", percent(kEBackend / kESlots)},
    {"Retiring", percent(kERetiring / kESlots)}};
const std::map<std::string, std::string> kNotRun = {
    {"Frontend_Bound", "n/a"}, {"Bad_Speculation", "n/a"}, {"Backend_Bound", "n/a"}, {"Retiring", "n/a"}};

TEST_F(HybridImport, ColumnsHaveABlockPerCoreTypeOnOneLine) {
  const CommandResult r = import("--columns", kHybridFile);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.err);
  std::string header_line, total_line, more;
  std::getline(lines, header_line);
  std::getline(lines, total_line);
  EXPECT_FALSE(std::getline(lines, more)) << r.err;
  const std::vector<std::string> header = words_of(header_line);
  const std::vector<std::string> total = words_of(total_line);
  // "#", "time", then per type: its name, level 1 (4 nodes), "Bottleneck".
  ASSERT_EQ(header.size(), 2u + 2 * 6) << header_line;
  ASSERT_EQ(total.size(), 1u + 2 * 6) << total_line;
  EXPECT_EQ(header[2], "P-core");
  EXPECT_EQ(header[8], "E-core");
  EXPECT_EQ(total[0], "total");
  expect_block(header, total, 1, percent(kPCycles / (kPCycles + kECycles)), kPLevelOne);
  expect_block(header, total, 7, percent(kECycles / (kPCycles + kECycles)), kELevelOne);
  // The E-cores' block starts where its heading does.
  EXPECT_EQ(total_line.find(total[7], total_line.find(total[6]) + total[6].size()) + total[7].size(),
            header_line.find("E-core") + std::string("E-core").size());
}

TEST_F(HybridImport, ColumnsPerIntervalKeepATypeThatDidNotRun) {
  // Two intervals on both types (each half the totals), then one on the P-cores alone.
  std::string file = "# started on Mon Jan  6 10:00:00 2025\n\n";
  const auto add_interval = [&](const std::string& time, const std::string& rows) {
    std::istringstream in(rows);
    for (std::string line; std::getline(in, line);) file += time + "," + line + "\n";
  };
  add_interval("0.100000", p_core_rows("", 0.5) + e_core_rows("", 0.5));
  add_interval("0.200000", p_core_rows("", 0.5) + e_core_rows("", 0.5));
  std::string not_counted;
  for (const char* event :
       {"CPU_CLK_UNHALTED.CORE", "TOPDOWN_FE_BOUND.ALL", "TOPDOWN_BE_BOUND.ALL", "TOPDOWN_RETIRING.ALL"}) {
    not_counted += std::string("<not counted>,,cpu_atom/") + event + "/,0,0.00,,\n";
  }
  add_interval("0.300000", p_core_rows("", 0.5) + not_counted);
  const CommandResult r = import("--columns --per-interval", file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) rows.push_back(words_of(line));
  ASSERT_EQ(rows.size(), 4u) << r.err;
  const std::vector<std::string>& header = rows[0];
  EXPECT_EQ(rows[1][0], "0.100");
  expect_block(header, rows[1], 1, percent(kPCycles / (kPCycles + kECycles)), kPLevelOne);
  expect_block(header, rows[2], 7, percent(kECycles / (kPCycles + kECycles)), kELevelOne);
  EXPECT_EQ(rows[3][0], "0.300");
  expect_block(header, rows[3], 1, "100.0%", kPLevelOne);
  expect_block(header, rows[3], 7, "0.0%", kNotRun);
  EXPECT_EQ(rows[3].back(), "-") << "no E-core bottleneck";
}

TEST_F(HybridImport, ColumnsAreOneLineAReportSoNotPerUnit) {
  const CommandResult r = import("--columns --per-thread", kHybridFile);
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("--columns"), std::string::npos) << r.err;
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
