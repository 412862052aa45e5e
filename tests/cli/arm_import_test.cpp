// `perf stat -x,` files from an Arm Neoverse import with --cpu: perf names
// Arm's events in lower case (stall_slot_frontend) or, counted by code, as
// raw rNNNN; both reach the model's events (README, "Arm Neoverse").
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;

// Neoverse V2, 8 slots a cycle: 1e9 cycles are 8e9 slots. Lower-case names
// and raw codes mixed: r0008 INST_RETIRED, r003a OP_RETIRED, r003e
// STALL_SLOT_FRONTEND, r0022 BR_MIS_PRED_RETIRED (Arm's event codes).
const char* kNeoverseV2Perf =
    "# started on Tue Mar  4 09:00:00 2025\n"
    "\n"
    "1000000000,,cpu_cycles,1000000000,100.00,,\n"
    "2000000000,,r0008,1000000000,100.00,,\n"
    "10000000,,br_mis_pred,1000000000,100.00,,\n"
    "2400000000,,r003a,1000000000,100.00,,\n"
    "3000000000,,op_spec,1000000000,100.00,,\n"
    "5200000000,,stall_slot,1000000000,100.00,,\n"
    "3600000000,,r003e,1000000000,100.00,,\n"
    "1600000000,,stall_slot_backend,1000000000,100.00,,\n"
    "4000000,,r0022,1000000000,100.00,,\n";

const nlohmann::json& entry(const nlohmann::json& report, const std::string& name) {
  for (const auto* key : {"nodes", "info"}) {
    for (const auto& found : report[key]) {
      if (found["name"] == name) return found;
    }
  }
  throw std::runtime_error(name + " is not in the report");
}

double value(const nlohmann::json& report, const std::string& name) {
  return entry(report, name)["value"].get<double>();
}

// The same counts with each name qualified by the core PMU, as perf prints
// them on some kernels and on big.LITTLE systems: a name, a raw code and
// event=, Arm's event code.
const char* kNeoverseV2PmuQualifiedPerf =
    "1000000000,,armv8_pmuv3_0/cpu_cycles/,1000000000,100.00,,\n"
    "2000000000,,armv8_pmuv3_0/r0008/,1000000000,100.00,,\n"
    "10000000,,armv8_pmuv3_0/br_mis_pred/,1000000000,100.00,,\n"
    "2400000000,,armv8_pmuv3_0/event=0x3a/,1000000000,100.00,,\n"
    "3000000000,,armv8_pmuv3_0/op_spec/,1000000000,100.00,,\n"
    "5200000000,,armv8_pmuv3_0/stall_slot/,1000000000,100.00,,\n"
    "3600000000,,armv8_pmuv3_0/stall_slot_frontend/,1000000000,100.00,,\n"
    "1600000000,,armv8_pmuv3_0/stall_slot_backend/,1000000000,100.00,,\n"
    "4000000,,armv8_pmuv3_0/r0022/,1000000000,100.00,,\n";

// The JSON report of `topdown import --cpu neoverse-v2 --smt off ARGS` of
// `perf_file`; null when the import failed (a test failure).
nlohmann::json import_neoverse_v2(const std::string& perf_file, const std::string& args) {
  TempTree tree;
  const auto file = tree.write("v2.csv", perf_file).string();
  const std::string out = tree.root().string() + "/out.json";
  auto r = run_command(kTopdown + " import --cpu neoverse-v2 --smt off " + args + " --json -o " + out + " " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(slurp(out)) : nlohmann::json();
}

void expect_neoverse_v2_values(const std::string& perf_file, const std::string& args = "") {
  const auto report = import_neoverse_v2(perf_file, "--info " + args);
  ASSERT_FALSE(report.is_null());
  EXPECT_EQ(report["model"]["name"], "neoverse-v2");
  // Arm's formulas by hand, cycles C = 1e9, slots 8C:
  // frontend 3.6e9/8e9 - 1e7/C; backend 1.6e9/8e9 - 3 * 1e7/C;
  // retiring 2.4/3.0 * (1 - 5.2e9/8e9); bad speculation (1 - 2.4/3.0) *
  // (1 - 5.2e9/8e9) + 4 * 1e7/C.
  EXPECT_NEAR(value(report, "Frontend_Bound"), 0.45 - 0.01, 1e-12);
  EXPECT_NEAR(value(report, "Backend_Bound"), 0.2 - 0.03, 1e-12);
  EXPECT_NEAR(value(report, "Retiring"), 0.8 * 0.35, 1e-12);
  EXPECT_NEAR(value(report, "Bad_Speculation"), 0.2 * 0.35 + 0.04, 1e-12);
  EXPECT_NEAR(report["level1_sum"].get<double>(), 1.0, 1e-12);
  EXPECT_EQ(report["bottleneck"], "Frontend_Bound");
  EXPECT_EQ(entry(report, "Frontend_Bound")["vendor_name"], "frontend_bound");
  EXPECT_NEAR(value(report, "IPC"), 2.0, 1e-12);
  EXPECT_NEAR(value(report, "Branch_MPKI"), 4e6 / 2e9 * 1000, 1e-12);
  EXPECT_TRUE(report["warnings"].empty()) << report["warnings"].dump();
}

TEST(ArmImport, NeoverseV2PerfFileWithLowerCaseNamesAndRawCodes) { expect_neoverse_v2_values(kNeoverseV2Perf); }

TEST(ArmImport, NeoverseV2PerfFileWithPmuQualifiedNames) { expect_neoverse_v2_values(kNeoverseV2PmuQualifiedPerf); }

// A device tree may name the core PMU anything: the probe of the counting
// machine (--root's copy here) knows it by its cpus list, and import takes
// the rows it qualifies as the events alone.
TEST(ArmImport, RowsQualifiedByACorePmuOfAnyNameAreTheEventsAlone) {
  TempTree machine;
  std::filesystem::copy(std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/sysfs-neoverse-v2", machine.root(),
                        std::filesystem::copy_options::recursive);
  const std::filesystem::path devices = machine.root() / "sys/bus/event_source/devices";
  std::filesystem::rename(devices / "armv8_pmuv3_0", devices / "v2_core_pmu");
  const std::string renamed =
      std::regex_replace(std::string(kNeoverseV2PmuQualifiedPerf), std::regex("armv8_pmuv3_0/"), "v2_core_pmu/");
  ASSERT_NE(renamed.find("v2_core_pmu/stall_slot/"), std::string::npos);
  expect_neoverse_v2_values(renamed, "--root " + machine.root().string());
}

TEST(ArmImport, TextNamesTheGroupsArmReadsNextUnderTheBottleneck) {
  TempTree tree;
  const auto file = tree.write("v2.csv", kNeoverseV2Perf).string();
  // The text report goes to stderr, as perf stat's does.
  auto r = run_command(kTopdown + " import --cpu neoverse-v2 --smt off -l 2 " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto bottleneck = r.err.find("Bottleneck: Frontend_Bound (44.0%)");
  ASSERT_NE(bottleneck, std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Branch_Effectiveness, ITLB_Effectiveness, L1I_Cache_Effectiveness", bottleneck),
            std::string::npos)
      << r.err;
}

// `stat --cpu neoverse-v2 --print-perf` on this (non-Arm) machine: the
// events on the Arm core PMU's ACPI name, said to be assumed, in one group
// (six event counters and the cycle counter); perf prints each count under
// its name= and import reads the file back.
TEST(ArmImport, PrintedPerfCommandCountsOnArmv8Pmuv3AndImportsBack) {
  auto printed = run_command(kTopdown + " stat --cpu neoverse-v2 --smt off --print-perf -- true");
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_NE(printed.err.find("# armv8_pmuv3_0 is assumed"), std::string::npos) << printed.err;
  EXPECT_EQ(printed.err.find("rotate"), std::string::npos) << printed.err;
  const size_t command = printed.err.find("perf stat -x, -o perf.csv -e '{");
  ASSERT_NE(command, std::string::npos) << printed.err;
  const std::string line = printed.err.substr(command, printed.err.find('\n', command) - command);
  EXPECT_NE(line.find("armv8_pmuv3_0/config=0x10,name=BR_MIS_PRED/"), std::string::npos) << line;
  EXPECT_EQ(line.find("cpu/"), std::string::npos) << line;

  // The counts of kNeoverseV2Perf, by the model's names.
  const std::map<std::string, double> counts = {
      {"CPU_CYCLES", 1e9},   {"BR_MIS_PRED", 1e7},           {"OP_RETIRED", 2.4e9},        {"OP_SPEC", 3e9},
      {"STALL_SLOT", 5.2e9}, {"STALL_SLOT_FRONTEND", 3.6e9}, {"STALL_SLOT_BACKEND", 1.6e9}};
  std::string perf_file;
  const std::regex named(R"(,name=([A-Z_]+)/)");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), named); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    ASSERT_TRUE(counts.count(name)) << name << " in " << line;
    perf_file += std::to_string(static_cast<long long>(counts.at(name))) + ",," + name + ",1000000000,100.00,,\n";
  }
  EXPECT_EQ(std::count(perf_file.begin(), perf_file.end(), '\n'), 7);
  const auto report = import_neoverse_v2(perf_file, "");
  ASSERT_FALSE(report.is_null());
  EXPECT_NEAR(value(report, "Frontend_Bound"), 3.6e9 / 8e9 - 1e7 / 1e9, 1e-12);
  EXPECT_NEAR(value(report, "Backend_Bound"), 1.6e9 / 8e9 - 3e7 / 1e9, 1e-12);
  EXPECT_NEAR(value(report, "Retiring"), 2.4 / 3.0 * (1 - 5.2e9 / 8e9), 1e-12);
  EXPECT_NEAR(value(report, "Bad_Speculation"), (1 - 2.4 / 3.0) * (1 - 5.2e9 / 8e9) + 4e7 / 1e9, 1e-12);
  EXPECT_TRUE(report["warnings"].empty()) << report["warnings"].dump();
}

}  // namespace
}  // namespace topdown::testing
