// A perf stat file of an Arm big.LITTLE system (tests/data/sysfs-biglittle:
// C1-Pro CPUs 0-5 on armv8_pmuv3_0, C1-Ultra CPUs 6-7 on armv8_pmuv3_1) with
// rows of both PMUs imports as one tree per kind, as a hybrid Intel CPU's
// does: written by hand here, its values computed from its numbers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kFixture = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/sysfs-biglittle";

// Each kind's counts: C cycles, W of them in WFI/WFE (IMP_WFX_CLOCK_CYCLES,
// raw 0x225, which perf names by code), the slot stalls (STALL_SLOT their
// sum), STALL_FRONTEND_FLUSH (raw 0x8162) and the ops.
struct KindCounts {
  std::string pmu;
  double slots_per_cycle, cycles, wfx, frontend_slots, backend_slots, flush, retired, speculated;
};
const KindCounts kLittle{"armv8_pmuv3_0", 5, 2e9, 0.2e9, 2.7e9, 3.6e9, 0.09e9, 1.6e9, 2e9};
const KindCounts kBig{"armv8_pmuv3_1", 10, 3e9, 0.1e9, 9e9, 7e9, 0.3e9, 2.4e9, 3e9};

std::string row(const std::string& pmu, double value, const std::string& event) {
  std::ostringstream out;
  out << static_cast<long long>(value) << ",," << pmu << "/" << event << "/,1000000000,100.00,,\n";
  return out.str();
}

std::string rows_of(const KindCounts& kind) {
  return row(kind.pmu, kind.cycles, "cpu_cycles") + row(kind.pmu, kind.wfx, "r0225") +
         row(kind.pmu, kind.frontend_slots, "stall_slot_frontend") +
         row(kind.pmu, kind.backend_slots, "stall_slot_backend") +
         row(kind.pmu, kind.frontend_slots + kind.backend_slots, "stall_slot") + row(kind.pmu, kind.flush, "r8162") +
         row(kind.pmu, kind.retired, "op_retired") + row(kind.pmu, kind.speculated, "op_spec");
}

const std::string kBigLittleFile = "# started on Mon Jan  6 10:00:00 2025\n\n" + rows_of(kLittle) + rows_of(kBig) +
                                   "5000000000,ns,duration_time,5000000000,100.00,,\n";

double value_of(const nlohmann::json& report, const std::string& name) {
  for (const auto& entry : report.at("nodes")) {
    if (entry["name"] == name) return entry["value"].get<double>();
  }
  throw std::runtime_error(name + " is not in the report");
}

// Arm's C1 level 1 over the cycles out of WFI/WFE. C1-Ultra takes the WFX
// cycles out of the frontend flush stalls too, and its backend stalls keep
// them; C1-Pro the reverse.
void expect_level_one(const nlohmann::json& report, const KindCounts& kind) {
  const bool ultra = kind.slots_per_cycle == 10;
  const double active = kind.cycles - kind.wfx;
  const double slots = kind.slots_per_cycle * active;
  const double idle_slots = kind.slots_per_cycle * kind.wfx;
  const double flush = ultra ? kind.flush - kind.wfx : kind.flush;
  const double frontend = (ultra ? kind.frontend_slots - idle_slots : kind.frontend_slots) / slots - flush / active;
  const double backend = (ultra ? kind.backend_slots : kind.backend_slots - idle_slots) / slots;
  const double issued = 1 - (kind.frontend_slots + kind.backend_slots - idle_slots) / slots;
  const double retired = kind.retired / kind.speculated;
  EXPECT_NEAR(value_of(report, "Frontend_Bound"), frontend, 1e-12);
  EXPECT_NEAR(value_of(report, "Backend_Bound"), backend, 1e-12);
  EXPECT_NEAR(value_of(report, "Retiring"), issued * retired, 1e-12);
  EXPECT_NEAR(value_of(report, "Bad_Speculation"), issued * (1 - retired) + flush / active, 1e-12);
}

class BigLittleImport : public ::testing::Test {
 protected:
  CommandResult import(const std::string& args) {
    const auto file = tree_.write("perf.csv", kBigLittleFile).string();
    return run_command(kTopdown + " import --smt off " + args + " " + file);
  }
  TempTree tree_;
};

TEST_F(BigLittleImport, OneTreePerKindHeadedByItsModelWithItsShareOfTheCycles) {
  const CommandResult r = import("--root " + kFixture + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<nlohmann::json> reports;
  std::istringstream in(r.err);
  for (std::string line; std::getline(in, line);) reports.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(reports.size(), 2u) << r.err;
  const double cycles = kBig.cycles + kLittle.cycles;
  EXPECT_EQ(reports[0]["model"]["name"], "arm-c1-ultra");
  EXPECT_EQ(reports[0]["core_type"], "Arm C1 Ultra");
  EXPECT_DOUBLE_EQ(reports[0]["core_share"].get<double>(), kBig.cycles / cycles);
  expect_level_one(reports[0], kBig);
  EXPECT_EQ(reports[1]["model"]["name"], "arm-c1-pro");
  EXPECT_EQ(reports[1]["core_type"], "Arm C1 Pro");
  EXPECT_DOUBLE_EQ(reports[1]["core_share"].get<double>(), kLittle.cycles / cycles);
  expect_level_one(reports[1], kLittle);
}

TEST_F(BigLittleImport, TextHeadsEachTreeWithItsKind) {
  const CommandResult r = import("--root " + kFixture);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t big = r.err.find("=== Arm C1 Ultra: 60.0% of the cycles ===");
  const size_t little = r.err.find("=== Arm C1 Pro: 40.0% of the cycles ===");
  ASSERT_NE(big, std::string::npos) << r.err;
  ASSERT_NE(little, std::string::npos) << r.err;
  EXPECT_LT(big, little);
}

// A device tree may name the core PMUs anything: the probe of --root's copy
// knows them by their cpus lists, and so does import.
TEST_F(BigLittleImport, CorePmusOfAnyNameAreKnownFromTheProbe) {
  std::filesystem::copy(kFixture, tree_.root() / "machine", std::filesystem::copy_options::recursive);
  const std::filesystem::path devices = tree_.root() / "machine/sys/bus/event_source/devices";
  std::filesystem::rename(devices / "armv8_pmuv3_0", devices / "little_cluster_pmu");
  std::filesystem::rename(devices / "armv8_pmuv3_1", devices / "big_cluster_pmu");
  KindCounts little = kLittle;
  little.pmu = "little_cluster_pmu";
  KindCounts big = kBig;
  big.pmu = "big_cluster_pmu";
  const auto file = tree_.write("odd.csv", "# started on Mon Jan  6 10:00:00 2025\n\n" + rows_of(little) +
                                               rows_of(big) + "5000000000,ns,duration_time,5000000000,100.00,,\n");
  const CommandResult r = run_command(kTopdown + " import --smt off --root " + (tree_.root() / "machine").string() +
                                      " --json " + file.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<nlohmann::json> reports;
  std::istringstream in(r.err);
  for (std::string line; std::getline(in, line);) reports.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(reports.size(), 2u) << r.err;
  EXPECT_EQ(reports[0]["core_type"], "Arm C1 Ultra");
  EXPECT_DOUBLE_EQ(reports[0]["core_share"].get<double>(), big.cycles / (big.cycles + little.cycles));
  expect_level_one(reports[0], big);
  EXPECT_EQ(reports[1]["core_type"], "Arm C1 Pro");
  expect_level_one(reports[1], little);
}

// Which PMU counts which kind is the counting machine's to tell.
TEST_F(BigLittleImport, WithoutThatMachinesSysfsItSaysWhereToFindIt) {
  const CommandResult r = import("--cpu arm-c1-ultra");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("armv8_pmuv3_0 and armv8_pmuv3_1, the core PMUs of a big.LITTLE system"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("with --root DIR"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace topdown::testing
