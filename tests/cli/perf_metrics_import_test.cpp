// perf stat -x files of the PERF_METRICS events, as perf writes them on Ice
// Lake and Sapphire Rapids, import by perf's names (slots, topdown-retiring,
// ...): the file's topdown events set perf_metrics, and each level-1 (and on
// Sapphire Rapids level-2) field is its slots over the slots, the level-2
// nodes perf does not count being what their siblings leave.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;

// The register's fields are 8-bit fractions of 255 that the kernel
// multiplies by the slots: with 255 * 8000000 slots every field is a whole
// number of parts of 8000000 slots, and a node is parts / 255.
constexpr double kSlots = 255 * 8e6;
double parts(double n) { return n / 255; }

// The slots and the four level-1 fields, as both CPUs report them.
const std::string kLevelOnePerf =
    "# started on Mon Jan  6 10:00:00 2025\n"
    "\n"
    "2040000000,,slots,1000000000,100.00,,\n"
    "480000000,,topdown-retiring,1000000000,100.00,23.5,% tma_retiring\n"
    "120000000,,topdown-bad-spec,1000000000,100.00,5.9,% tma_bad_speculation\n"
    "640000000,,topdown-fe-bound,1000000000,100.00,31.4,% tma_frontend_bound\n"
    "800000000,,topdown-be-bound,1000000000,100.00,39.2,% tma_backend_bound\n";

// TMA 5.1 corrects level 1 by the uops dropped at a clear and 5 slots per
// clear (INT_MISC.UOP_DROPPING, INT_MISC.CLEARS_COUNT), counted beside the
// group; counted as 0 here, so that level 1 is the fields' arithmetic alone.
const std::string kIceLakePerf = kLevelOnePerf +
                                 "0,,int_misc.uop_dropping,1000000000,100.00,,\n"
                                 "0,,int_misc.clears_count,1000000000,100.00,,\n";

const std::string kSapphireRapidsPerf =
    kLevelOnePerf +
    "160000000,,topdown-heavy-ops,1000000000,100.00,7.8,% tma_heavy_operations\n"
    "80000000,,topdown-br-mispredict,1000000000,100.00,3.9,% tma_branch_mispredicts\n"
    "400000000,,topdown-fetch-lat,1000000000,100.00,19.6,% tma_fetch_latency\n"
    "560000000,,topdown-mem-bound,1000000000,100.00,27.5,% tma_memory_bound\n"
    "0,,int_misc.uop_dropping,1000000000,100.00,,\n";

class PerfMetricsImport : public ::testing::Test {
 protected:
  // The JSON report of `topdown import ARGS FILE` on `perf_file`; not an
  // object when the import failed.
  nlohmann::json import(const std::string& args, const std::string& perf_file) {
    const auto file = tree_.write("perf.csv", perf_file).string();
    const CommandResult r = run_command(kTopdown + " import --smt off --json " + args + " " + file);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.err, nullptr, false);
  }

  TempTree tree_;
};

// A node's or Info metric's value; nullopt when n/a or not reported.
std::optional<double> value_of(const nlohmann::json& report, const std::string& name) {
  for (const auto& key : {"nodes", "info"}) {
    for (const auto& entry : report.at(key)) {
      if (entry["name"] == name && entry["value"].is_number()) return entry["value"].get<double>();
    }
  }
  return std::nullopt;
}

// Values computed along different paths (1 - the others) differ from
// parts / 255 in the last bits only.
constexpr double kRounding = 1e-12;

// Expects each named node to be its parts of the slots.
void expect_parts(const nlohmann::json& report, const std::map<std::string, double>& parts_of_nodes) {
  for (const auto& [name, n] : parts_of_nodes) {
    EXPECT_NEAR(value_of(report, name).value_or(-1), parts(n), kRounding) << name;
  }
}

// Level 1 of both files.
const std::map<std::string, double> kLevelOneParts = {
    {"Retiring", 60}, {"Bad_Speculation", 15}, {"Frontend_Bound", 80}, {"Backend_Bound", 100}};

TEST_F(PerfMetricsImport, IceLakeLevelOneIsEachFieldOverTheSlots) {
  const auto report = import("--cpu icl -l 1", kIceLakePerf);
  ASSERT_TRUE(report.is_object());
  expect_parts(report, kLevelOneParts);
  EXPECT_NEAR(report.at("level1_sum").get<double>(), 1.0, kRounding);
  EXPECT_EQ(report.at("bottleneck"), "Backend_Bound");
  // perf's `slots` is TOPDOWN.SLOTS, read as such only with perf_metrics on
  // (without the register the slots come from TOPDOWN.SLOTS_P).
  EXPECT_EQ(value_of(report, "Info_Thread_SLOTS"), kSlots);
  EXPECT_TRUE(report.at("extra_events").empty()) << report.at("extra_events");
  EXPECT_TRUE(report.at("warnings").empty()) << report.at("warnings");
}

TEST_F(PerfMetricsImport, IceLakeLevelOneTakesTheClearCorrectionsOfTma51) {
  std::string perf = kIceLakePerf;
  // 4 parts of uops dropped at clears; 1600000 clears of 5 slots each: 1 part.
  perf.replace(perf.find("0,,int_misc.uop_dropping"), 1, "32000000");
  perf.replace(perf.find("0,,int_misc.clears_count"), 1, "1600000");
  const auto report = import("--cpu icl -l 1", perf);
  ASSERT_TRUE(report.is_object());
  expect_parts(
      report,
      {{"Frontend_Bound", 80 - 4}, {"Backend_Bound", 100 + 1}, {"Retiring", 60}, {"Bad_Speculation", 15 + 4 - 1}});
}

TEST_F(PerfMetricsImport, SapphireRapidsLevelTwoFromTheFieldsAndTheirDifferences) {
  const auto report = import("--cpu spr -l 2", kSapphireRapidsPerf);
  ASSERT_TRUE(report.is_object());
  expect_parts(report, kLevelOneParts);
  // Counted by the register.
  expect_parts(report,
               {{"Heavy_Operations", 20}, {"Branch_Mispredicts", 10}, {"Fetch_Latency", 50}, {"Memory_Bound", 70}});
  // What the parent leaves.
  expect_parts(report, {{"Light_Operations", 60 - 20},
                        {"Machine_Clears", 15 - 10},
                        {"Fetch_Bandwidth", 80 - 50},
                        {"Core_Bound", 100 - 70}});
  EXPECT_EQ(report.at("nodes").size(), 12u);
  EXPECT_NEAR(report.at("level1_sum").get<double>(), 1.0, kRounding);
  EXPECT_EQ(value_of(report, "Info_Thread_SLOTS"), kSlots);
  EXPECT_TRUE(report.at("extra_events").empty()) << report.at("extra_events");
}

// What a node's status says, "" when it is not reported.
std::string status_of(const nlohmann::json& report, const std::string& name) {
  for (const auto& entry : report.at("nodes")) {
    if (entry["name"] == name) return entry["status"].get<std::string>();
  }
  return "";
}

// `perf stat --topdown -x,` writes the slots and the fields alone: level 1 is
// the seeds' arithmetic (each field over the slots), marked approximate since
// TMA 5.x would also correct it by events perf did not count.
TEST_F(PerfMetricsImport, PlainPerfTopdownFileGivesTheFieldsArithmeticMarkedApproximate) {
  for (const std::string cpu : {"icl", "spr"}) {
    const auto report = import("--cpu " + cpu + " -l 1", kLevelOnePerf);
    ASSERT_TRUE(report.is_object()) << cpu;
    expect_parts(report, kLevelOneParts);
    EXPECT_NEAR(report.at("level1_sum").get<double>(), 1.0, kRounding) << cpu;
    EXPECT_EQ(report.at("bottleneck"), "Backend_Bound") << cpu;
    EXPECT_EQ(status_of(report, "Frontend_Bound"), "approximate") << cpu;
    EXPECT_EQ(status_of(report, "Bad_Speculation"), "approximate") << cpu;  // computed from Frontend_Bound
    EXPECT_EQ(status_of(report, "Retiring"), "ok") << cpu;
    // Sapphire Rapids' Backend_Bound is the field alone in TMA 5.01 too.
    EXPECT_EQ(status_of(report, "Backend_Bound"), cpu == "icl" ? "approximate" : "ok");
    ASSERT_EQ(report.at("warnings").size(), 1u) << report.at("warnings");
    const std::string warning = report.at("warnings")[0];
    EXPECT_NE(warning.find(cpu == "icl" ? "lacks INT_MISC.CLEARS_COUNT, INT_MISC.UOP_DROPPING:"
                                        : "lacks INT_MISC.UOP_DROPPING:"),
              std::string::npos)
        << warning;
  }
  // In text the approximate values are marked ~ and explained.
  const auto file = tree_.write("plain.csv", kLevelOnePerf).string();
  const CommandResult text = run_command(kTopdown + " import --smt off --cpu icl " + file);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.err.find("31.4%~"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("~ approximate:"), std::string::npos) << text.err;
}

}  // namespace
}  // namespace topdown::testing
