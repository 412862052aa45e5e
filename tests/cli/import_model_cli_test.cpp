// topdown import --model FILE: a model of one's own, as stat, record, report
// and serve take it; here the software model, which reads perf's time
// events in the kernel's nanoseconds, whatever unit perf printed them in.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kSoftwareModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

// `perf stat -x, -e task-clock,duration_time,page-faults` of a busy
// single-threaded command: task-clock in msec, duration_time in ns.
const char* kPerfStat =
    "796.55,msec,task-clock,796550000,100.00,0.999,CPUs utilized\n"
    "797000000,ns,duration_time,797000000,100.00,,\n"
    "49,,page-faults,796550000,100.00,61.516,/sec\n";

double value_of(const nlohmann::json& report, const std::string& section, const std::string& name) {
  for (const auto& entry : report[section]) {
    if (entry["name"] == name) return entry["value"].get<double>();
  }
  ADD_FAILURE() << "no " << name << " in " << section;
  return -1;
}

TEST(ImportModelCli, TheModelOfAFileReadsPerfsMsecAsTheKernelsNanoseconds) {
  TempTree tree;
  const auto file = tree.write("perf.csv", kPerfStat).string();
  const std::string json = tree.root().string() + "/out.json";
  const auto r = run_command(kTopdown + " import --model " + kSoftwareModel + " --info --json -o " + json + " " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(report["model"]["name"], "software");
  // perf's own "0.999 CPUs utilized": 796.55 ms on a CPU in 797 ms.
  EXPECT_NEAR(value_of(report, "nodes", "On_CPU"), 796.55 / 797.0, 1e-12);
  EXPECT_NEAR(value_of(report, "nodes", "Off_CPU"), 1 - 796.55 / 797.0, 1e-12);
  EXPECT_NEAR(value_of(report, "info", "CPUs_Utilized"), 796.55 / 797.0, 1e-12);
  EXPECT_NEAR(value_of(report, "info", "Page_Faults_Per_Second"), 49 / 0.797, 1e-9);
}

// The same checks as stat's --model: a file that exists, and not with --cpu.
TEST(ImportModelCli, AMissingModelFileOrOneWithCpuIsRefused) {
  TempTree tree;
  const auto file = tree.write("perf.csv", kPerfStat).string();
  const auto missing = run_command(kTopdown + " import --model " + tree.root().string() + "/none.model " + file);
  EXPECT_EQ(missing.exit_code, 125);
  EXPECT_EQ(missing.out, "");
  EXPECT_NE(missing.err.find("--model"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("none.model"), std::string::npos) << missing.err;
  const auto with_cpu = run_command(kTopdown + " import --model " + kSoftwareModel + " --cpu zen5 " + file);
  EXPECT_EQ(with_cpu.exit_code, 125);
  EXPECT_EQ(with_cpu.out, "");
  EXPECT_NE(with_cpu.err.find("--cpu excludes --model"), std::string::npos) << with_cpu.err;
}

}  // namespace
}  // namespace topdown::testing
