#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../collect/test_support.h"
#include "cpu/cpu_info.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kDemo = TOPDOWN_DEMO_BIN;
const std::string kSoftwareModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

TEST(Cli, InfoDescribesTheCpu) {
  auto r = run_command(kTopdown + " info");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("cpu:"), std::string::npos);
  EXPECT_NE(r.err.find("general counters:"), std::string::npos);
  EXPECT_NE(r.err.find(has_pmu() ? "core pmu:       yes" : "core pmu:       NO"), std::string::npos);
}

TEST(Cli, PrintGroupsShowsAPlanThatFitsTheCounters) {
  auto r = run_command(kTopdown + " stat --cpu zen5 --counters 5 -l1 --print-groups");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("model zen5 (SMT off): 5 events in 1 group on 5 general counters (no multiplexing)"),
            std::string::npos)
      << r.err;
  auto deeper = run_command(kTopdown + " stat --cpu zen5 --counters 5 -l2 --print-groups");
  ASSERT_EQ(deeper.exit_code, 0) << deeper.err;
  EXPECT_NE(deeper.err.find("groups rotate"), std::string::npos) << deeper.err;
}

TEST(Cli, ExtraEventsInEverySyntaxArePlanned) {
  auto r =
      run_command(kTopdown + " stat --cpu zen5 --counters 5 --print-groups -e r0c0,cpu/event=0x76/,ex_ret_brn_misp");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("r0c0"), std::string::npos);
  EXPECT_NE(r.err.find("cpu/event=0x76/"), std::string::npos);
}

TEST(Cli, UnknownEventIsOneClearError) {
  auto r = run_command(kTopdown + " stat --cpu zen5 --counters 6 --print-groups -e NO_SUCH_EVENT.ANY");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("topdown: unknown event 'NO_SUCH_EVENT.ANY'"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST(Cli, UnknownCpuNamesTheNearestModelOnOneLine) {
  auto r = run_command(kTopdown + " stat --cpu clz --print-groups");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err, "topdown: --cpu clz names no model (did you mean 'clx'?); `topdown list --models` lists them\n");
  auto far = run_command(kTopdown + " list --cpu pentium4");
  EXPECT_EQ(far.exit_code, 125);
  EXPECT_EQ(far.err, "topdown: --cpu pentium4 names no model; `topdown list --models` lists them\n");
}

TEST(Cli, ListAndDescribeShowTheModel) {
  auto list = run_command(kTopdown + " list --cpu zen5");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("Frontend_Bound"), std::string::npos);
  EXPECT_NE(list.out.find("    Memory_Bound"), std::string::npos);
  auto describe = run_command(kTopdown + " describe Memory_Bound --cpu zen5");
  ASSERT_EQ(describe.exit_code, 0) << describe.err;
  EXPECT_NE(describe.out.find("formula:"), std::string::npos);
  EXPECT_NE(describe.out.find("ex_no_retire.load_not_complete"), std::string::npos);
  auto unknown = run_command(kTopdown + " describe Nope --cpu zen5");
  EXPECT_EQ(unknown.exit_code, 125);
  auto with_fallback = run_command(kTopdown + " describe Backend_Bound --cpu icl");
  ASSERT_EQ(with_fallback.exit_code, 0) << with_fallback.err;
  EXPECT_NE(with_fallback.out.find("  fallback:  PERF_METRICS.BACKEND_BOUND / (PERF_METRICS.FRONTEND_BOUND + "
                                   "PERF_METRICS.BAD_SPECULATION + PERF_METRICS.RETIRING + PERF_METRICS.BACKEND_BOUND) "
                                   "if perf_metrics else (TOPDOWN.BACKEND_BOUND_SLOTS + 5 * INT_MISC.CLEARS_COUNT) / "
                                   "Info_Thread_SLOTS (import,"),
            std::string::npos)
      << with_fallback.out;
}

TEST(Cli, ListAndDescribeTheDeepHaswellTree) {
  auto list = run_command(kTopdown + " list --cpu hsw");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("  Node                               Level  Domain           Area     Threshold"),
            std::string::npos)
      << list.out;
  EXPECT_NE(list.out.find("\n            Port_7                       6  Core_Clocks      BE/Core  this > 0.6"),
            std::string::npos)
      << list.out;
  EXPECT_NE(list.out.find("\n  Retiring                               1  Slots            RET      this > 0.7 or "
                          "over(Heavy_Operations)"),
            std::string::npos);
  auto describe = run_command(kTopdown + " describe Memory_Bound --cpu hsw");
  ASSERT_EQ(describe.exit_code, 0) << describe.err;
  // The definitions the formula uses, and those they use, in model order.
  EXPECT_NE(describe.out.find("  formula:   Memory_Bound_Fraction * Backend_Bound\n"
                              "    where    STALLS_MEM_ANY = min(CPU_CLK_UNHALTED.THREAD, "
                              "CYCLE_ACTIVITY.STALLS_LDM_PENDING)\n"),
            std::string::npos)
      << describe.out;
  EXPECT_NE(describe.out.find("    where    Frontend_RS_Empty_Cycles = RS_EVENTS.EMPTY_CYCLES if Fetch_Latency > 0.1 "
                              "else 0\n"),
            std::string::npos);
  EXPECT_EQ(describe.out.find("where    SLOTS"), std::string::npos);  // not used by this formula
}

TEST(Cli, WithoutAPmuStatSaysWhyAndFails) {
  if (has_pmu()) GTEST_SKIP() << "this machine has a PMU; the no-PMU path is not reachable here";
  if (cpu::read_cpuid().vendor != cpu::Vendor::Amd) GTEST_SKIP() << "counting with the zen5 model needs an AMD host";
  auto r = run_command(kTopdown + " stat --cpu zen5 -- " + kDemo + " alu --iterations 1000");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("no hardware PMU"), std::string::npos) << r.err;
}

// The software model counts without a PMU, so this runs on any machine that
// allows perf_event_open.
TEST(Cli, WorkloadExitStatusAndStartFailures) {
  SKIP_WITHOUT_PERF_EVENTS();
  const std::string stat = kTopdown + " stat --model " + kSoftwareModel;
  EXPECT_EQ(run_command(stat + " -- true").exit_code, 0);
  EXPECT_EQ(run_command(stat + " -- sh -c 'exit 7'").exit_code, 7);
  EXPECT_EQ(run_command(stat + " -- sh -c 'kill -TERM $$'").exit_code, 128 + SIGTERM);
  auto missing = run_command(stat + " -- topdown-no-such-command");
  EXPECT_EQ(missing.exit_code, 127);
  EXPECT_NE(missing.err.find("topdown: cannot run 'topdown-no-such-command'"), std::string::npos) << missing.err;
  EXPECT_EQ(run_command(stat + " -- /").exit_code, 126);
}

TEST(Cli, UnwritableOutputLeavesNoFile) {
  std::string dir = ::testing::TempDir() + "/td_readonly";
  std::filesystem::create_directories(dir);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  auto r = run_command(kTopdown + " stat --cpu zen5 --print-groups -o " + dir + "/out.txt");
  bool root = ::geteuid() == 0;  // root writes anyway
  if (!root) {
    EXPECT_EQ(r.exit_code, 125);
    EXPECT_NE(r.err.find("cannot write output file"), std::string::npos) << r.err;
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), root ? 1 : 0);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
  std::filesystem::remove_all(dir);
}

TEST(Cli, OutputFileGetsTheWholeReport) {
  std::string path = ::testing::TempDir() + "/plan.txt";
  std::filesystem::remove(path);
  auto r = run_command(kTopdown + " stat --cpu zen5 --print-groups -o " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty());
  EXPECT_NE(slurp(path).find("model zen5 (SMT off):"), std::string::npos);
}

// Live: the dominant nodes of each demo kernel (needs real counters).
struct Expected {
  const char* kernel;
  const char* level1;
  const char* level2;
};

class DemoKernels : public ::testing::TestWithParam<Expected> {};

TEST_P(DemoKernels, NameTheExpectedDominantNodes) {
  SKIP_WITHOUT_PMU();
  auto r = run_command(kTopdown + " stat -l2 --json -- " + kDemo + " " + GetParam().kernel);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.err);
  auto largest = [&](int level, const std::string& parent) {
    std::string best;
    double value = -1;
    for (const auto& node : j["nodes"]) {
      if (node["level"] != level || node["value"].is_null()) continue;
      if (level > 1 && node["parent"] != parent) continue;
      if (node["value"].get<double>() > value) {
        value = node["value"].get<double>();
        best = node["name"];
      }
    }
    return best;
  };
  std::string level1 = largest(1, "");
  EXPECT_EQ(level1, GetParam().level1) << r.err;
  EXPECT_EQ(largest(2, level1), GetParam().level2) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Zen, DemoKernels,
                         ::testing::Values(Expected{"pointer-chase", "Backend_Bound", "Memory_Bound"},
                                           Expected{"branchy", "Bad_Speculation", "Branch_Mispredicts"},
                                           Expected{"alu", "Retiring", "Light_Operations"}),
                         [](const auto& param_info) {
                           std::string name = param_info.param.kernel;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace topdown::testing
