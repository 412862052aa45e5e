// topdown import --per-thread / --per-core / --per-socket end to end.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;

// Haswell with SMT: CPUs 0 and 2 share core 0, CPUs 1 and 3 core 1. Each
// thread's THREAD_ANY counts its core's cycles.
const char* kHaswellPerCpu =
    "CPU0,10000,,CPU_CLK_UNHALTED.THREAD_ANY,1000,100.00,,\n"
    "CPU1,12000,,CPU_CLK_UNHALTED.THREAD_ANY,1000,100.00,,\n"
    "CPU2,10000,,CPU_CLK_UNHALTED.THREAD_ANY,1000,100.00,,\n"
    "CPU3,12000,,CPU_CLK_UNHALTED.THREAD_ANY,1000,100.00,,\n"
    "CPU0,8000,,IDQ_UOPS_NOT_DELIVERED.CORE,1000,100.00,,\n"
    "CPU1,2000,,IDQ_UOPS_NOT_DELIVERED.CORE,1000,100.00,,\n"
    "CPU2,4000,,IDQ_UOPS_NOT_DELIVERED.CORE,1000,100.00,,\n"
    "CPU3,6000,,IDQ_UOPS_NOT_DELIVERED.CORE,1000,100.00,,\n";

const char* kTopology = "# CPU,Core,Socket\n0,0,0\n1,1,0\n2,0,0\n3,1,0\n";

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

double frontend_bound(const nlohmann::json& report) {
  for (const auto& node : report["nodes"]) {
    if (node["name"] == "Frontend_Bound") return node["value"].get<double>();
  }
  return -1;
}

TEST(PerUnitImport, PerCoreJsonHasOneObjectPerCoreWithItsScope) {
  TempTree tree;
  const auto file = tree.write("perf.csv", kHaswellPerCpu);
  const auto topology = tree.write("lscpu.txt", kTopology);
  const auto result = run_command(kTopdown + " import --cpu hsw --smt on --per-core --json --topology " +
                                  topology.string() + " " + file.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto reports = json_lines(result.err);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0]["scope"], "S0-C0");
  EXPECT_EQ(reports[1]["scope"], "S0-C1");
  // The core's undelivered slots over 4 slots per core cycle.
  EXPECT_DOUBLE_EQ(frontend_bound(reports[0]), 12000.0 / (4 * 10000));
  EXPECT_DOUBLE_EQ(frontend_bound(reports[1]), 8000.0 / (4 * 12000));
}

TEST(PerUnitImport, PerThreadCsvAndTextNameEachCpu) {
  TempTree tree;
  const auto file = tree.write("perf.csv", kHaswellPerCpu);
  const auto csv = run_command(kTopdown + " import --cpu hsw --smt on --per-thread --csv " + file.string());
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.err.rfind("scope,kind,name,", 0), 0u) << csv.err;
  EXPECT_NE(csv.err.find("\nCPU3,node,Frontend_Bound,1,,,0.25,"), std::string::npos) << csv.err;
  EXPECT_EQ(csv.err.find("scope,", 1), std::string::npos);  // one header

  const auto text = run_command(kTopdown + " import --cpu hsw --smt on --per-thread " + file.string());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.err.find("=== CPU0 ==="), std::string::npos);
  EXPECT_NE(text.err.find("=== CPU3 ==="), std::string::npos);
}

TEST(PerUnitImport, PerCoreOfAnotherMachinesCpusNeedsItsTopology) {
  TempTree tree;
  const auto file = tree.write("perf.csv", kHaswellPerCpu);
  const auto result = run_command(kTopdown + " import --cpu hsw --smt on --per-socket " + file.string());
  EXPECT_EQ(result.exit_code, 125);
  EXPECT_NE(result.err.find("--topology FILE"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("perf.csv"), std::string::npos) << result.err;
}

TEST(PerUnitImport, AFileWithoutPlacesCannotBeSplit) {
  TempTree tree;
  const auto file = tree.write("counts.txt", "CPU_CLK_UNHALTED.THREAD 1000\n");
  const auto result = run_command(kTopdown + " import --cpu hsw --per-core " + file.string());
  EXPECT_EQ(result.exit_code, 125);
  EXPECT_NE(result.err.find("has no rows per CPU"), std::string::npos) << result.err;
  const auto both = run_command(kTopdown + " import --cpu hsw --per-core --per-thread " + file.string());
  EXPECT_NE(both.exit_code, 0);
}

}  // namespace
}  // namespace topdown::testing
