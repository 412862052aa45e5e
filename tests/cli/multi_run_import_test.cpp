// Files of several perf stat runs one after another (perf's "# started on"
// line starts each): every node from the run that holds all of its events.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;

// Zen 5's three groups of level 2 (as ../shared/recordings counts them), one
// run each, of different lengths (1.0 s, 1.5 s, 0.7 s) and clock rates.
// Run 1: 3e9 cycles, 24e9 slots: Frontend 4.8e9 (0.2), dispatched 12e9 and
//   retired 9.6e9 ops (Bad_Speculation 0.1, Retiring 0.4), backend 7.2e9 (0.3).
// Run 2: 4e9 cycles, 32e9 slots: 1e9 cycles of no frontend ops (cmask 8:
//   Fetch_Latency 4e9/32e9 = 0.125), 11.2e9 retired ops (Retiring 0.35 here),
//   1.12e9 of them microcode (Light_Operations 0.35 * 0.9, Heavy 0.035).
// Run 3: 1.5e9 cycles, 3e6 mispredicts, 1e6 resyncs, 1e9 cycles without
//   retirement, 0.6e9 of them waiting on a load.
const char* kThreeRuns =
    "# started on Sun Nov 22 07:08:18 2026\n\n"
    "3000000000;;cpu/event=0x76/;1000000000;100.00;;\n"
    "4800000000;;cpu/event=0x1a0,umask=0x01/;1000000000;100.00;;\n"
    "7200000000;;cpu/event=0x1a0,umask=0x1e/;1000000000;100.00;;\n"
    "9600000000;;cpu/event=0xc1/;1000000000;100.00;;\n"
    "12000000000;;cpu/event=0xaa,umask=0x07/;1000000000;100.00;;\n"
    "# started on Sun Nov 22 07:08:20 2026\n\n"
    "4000000000;;cpu/event=0x76/;1500000000;100.00;;\n"
    "500000000;;cpu/event=0x1a0,umask=0x01,cmask=0x8/;1500000000;100.00;;\n"
    "0;;cpu/event=0x1a0,umask=0x60/;1500000000;100.00;;\n"
    "11200000000;;cpu/event=0xc1/;1500000000;100.00;;\n"
    "1120000000;;cpu/event=0x1c2/;1500000000;100.00;;\n"
    "# started on Sun Nov 22 07:08:22 2026\n\n"
    "1500000000;;cpu/event=0x76/;700000000;100.00;;\n"
    "3000000;;cpu/event=0xc3/;700000000;100.00;;\n"
    "1000000;;cpu/event=0x9f,umask=0x01/;700000000;100.00;;\n"
    "1000000000;;cpu/event=0xd6,umask=0x02/;700000000;100.00;;\n"
    "600000000;;cpu/event=0xd6,umask=0xa2/;700000000;100.00;;\n";

nlohmann::json import_json(const std::string& file, const std::string& options) {
  TempTree out;
  const std::string json = out.root().string() + "/out.json";
  auto r = run_command(kTopdown + " import --cpu zen5 --smt off --json " + options + " -o " + json + " " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(slurp(json));
}

const nlohmann::json& node(const nlohmann::json& report, const std::string& name) {
  for (const auto& entry : report["nodes"]) {
    if (entry["name"] == name) return entry;
  }
  ADD_FAILURE() << "no node " << name;
  static const nlohmann::json kNone;
  return kNone;
}

TEST(MultiRunImport, EveryNodeComesFromTheRunThatHoldsItsEvents) {
  TempTree tree;
  const auto report = import_json(tree.write("runs.csv", kThreeRuns).string(), "-l2 -v");
  EXPECT_NEAR(report["level1_sum"].get<double>(), 1.0, 0.001);
  const std::map<std::string, double> run_local = {
      {"Frontend_Bound", 0.2}, {"Bad_Speculation", 0.1}, {"Backend_Bound", 0.3},      {"Retiring", 0.4},
      {"SMT_Contention", 0.0}, {"Fetch_Latency", 0.125}, {"Light_Operations", 0.315}, {"Heavy_Operations", 0.035},
  };
  for (const auto& [name, value] : run_local) {
    SCOPED_TRACE(name);
    EXPECT_NEAR(node(report, name)["value"].get<double>(), value, 1e-12);
    EXPECT_EQ(node(report, name)["status"], "ok");
  }
  // Frontend_Bound (run 1) minus Fetch_Latency (run 2), Bad_Speculation (run
  // 1) split by run 3's branch counts: from the runs' rates, and marked so.
  for (const char* split : {"Fetch_Bandwidth", "Branch_Mispredicts", "Machine_Clears", "Memory_Bound", "Core_Bound"}) {
    SCOPED_TRACE(split);
    EXPECT_EQ(node(report, split)["status"], "approximate");
    EXPECT_TRUE(node(report, split)["value"].is_number());
  }
  ASSERT_EQ(report["warnings"].size(), 1u) << report["warnings"];
  EXPECT_NE(report["warnings"][0].get<std::string>().find("holds 3 perf stat runs"), std::string::npos);
}

// A split node from the runs joined through the clock (the model's clock
// event, ls_not_halted_cyc): every run's counts per cycle, whatever its
// length. Branch_Mispredicts = Bad_Speculation * 3 / (3 + 1), Bad_Speculation
// from run 1's dispatched ops per cycle (12e9 / 3e9) less the retired ops per
// cycle of runs 1 and 2 (9.6e9 / 3e9 and 11.2e9 / 4e9, averaged), over 8
// slots a cycle.
TEST(MultiRunImport, SplitNodesJoinTheRunsThroughTheirClock) {
  TempTree tree;
  const auto report = import_json(tree.write("runs.csv", kThreeRuns).string(), "-l2 -v");
  const double bad_speculation = (12e9 / 3e9 - (9.6e9 / 3e9 + 11.2e9 / 4e9) / 2) / 8;
  EXPECT_NEAR(node(report, "Branch_Mispredicts")["value"].get<double>(), bad_speculation * 0.75, 1e-12);
  EXPECT_NE(report["warnings"][0].get<std::string>().find("from the runs' counts per ls_not_halted_cyc tick"),
            std::string::npos)
      << report["warnings"];
}

// A run without the clock event is joined through time, and the warning says
// which: run 3 here has no cycles, so its branch counts are rescaled to the
// runs' mean length (1.0666... s) while runs 1 and 2 go by their cycles.
TEST(MultiRunImport, ARunWithoutTheClockIsJoinedThroughTime) {
  std::string runs = kThreeRuns;
  runs.erase(runs.find("1500000000;;cpu/event=0x76/;700000000;100.00;;\n"),
             std::string_view("1500000000;;cpu/event=0x76/;700000000;100.00;;\n").size());
  TempTree tree;
  const auto report = import_json(tree.write("runs.csv", runs).string(), "-l2 -v");
  const std::string warning = report["warnings"][0];
  EXPECT_NE(warning.find("per ls_not_halted_cyc tick, marked approximate (~) (run 3 did not count "
                         "ls_not_halted_cyc: per second there)"),
            std::string::npos)
      << warning;
  // The mispredict split is a ratio of run 3's own counts, whatever their scale.
  const double bad_speculation = (12e9 / 3e9 - (9.6e9 / 3e9 + 11.2e9 / 4e9) / 2) / 8;
  EXPECT_NEAR(node(report, "Branch_Mispredicts")["value"].get<double>(), bad_speculation * 0.75, 1e-12);
}

// A row whose counter never ran (run time 0) is missing from its run, as if
// the run had no such row; it never stands for a count over no time (which
// made every level-1 node about 0%).
TEST(MultiRunImport, ARowThatNeverRanIsMissingNotACountOverNoTime) {
  const std::string cycles = "1500000000;;cpu/event=0x76/;700000000;100.00;;\n";
  std::string never_ran = kThreeRuns;
  never_ran.replace(never_ran.find(cycles), cycles.size(), "1500000000;;cpu/event=0x76/;0;100.00;;\n");
  std::string without = kThreeRuns;
  without.erase(without.find(cycles), cycles.size());
  TempTree tree;
  const auto report = import_json(tree.write("never_ran.csv", never_ran).string(), "-l2 -v");
  const auto expected = import_json(tree.write("without.csv", without).string(), "-l2 -v");
  for (const auto& entry : expected["nodes"]) {
    SCOPED_TRACE(entry["name"].get<std::string>());
    EXPECT_EQ(node(report, entry["name"])["value"], entry["value"]);
    EXPECT_EQ(node(report, entry["name"])["status"], entry["status"]);
  }
  // The real recording with its first run's cycles never running: level 1
  // from the runs' rates, still about all backend.
  std::string recording = slurp(std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/zen5-ptrchase-3runs.csv");
  const std::string first_cycles = "5574106661;;cpu/event=0x76/;1279507670;";
  recording.replace(recording.find(first_cycles), first_cycles.size(), "5574106661;;cpu/event=0x76/;0;");
  const auto real = import_json(tree.write("real.csv", recording).string(), "-l1");
  EXPECT_GT(node(real, "Backend_Bound")["value"].get<double>(), 0.95);
  EXPECT_EQ(real["bottleneck"], "Backend_Bound");
}

// A real Zen 5 recording (../shared/recordings/zen5-perf-stat, ptrchase run
// 1, its three groups' files one after another): pooled, its level 1 summed
// to 90%; each from its run, to 100% as within one group.
TEST(MultiRunImport, RealZen5RecordingSumsTo100Percent) {
  const auto report = import_json(std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/zen5-ptrchase-3runs.csv", "-l2");
  EXPECT_NEAR(report["level1_sum"].get<double>(), 1.0, 0.001);
  EXPECT_GT(node(report, "Backend_Bound")["value"].get<double>(), 0.99);
  EXPECT_EQ(report["bottleneck"], "Memory_Bound");
  // Group 1 alone: backend_stalls / (8 * cycles).
  EXPECT_NEAR(node(report, "Backend_Bound")["value"].get<double>(), 44529105104.0 / (8 * 5574106661.0), 1e-12);
}

// The counts of one group's file of ../shared/recordings/zen5-perf-stat, by
// perf's event spelling.
std::map<std::string, double> group_counts(const std::filesystem::path& file) {
  std::map<std::string, double> counts;
  std::istringstream lines(slurp(file.string()));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t first = line.find(';');
    const size_t event = line.find(';', first + 1) + 1;
    counts[line.substr(event, line.find(';', event) - event)] = std::stod(line.substr(0, first));
  }
  return counts;
}

// Every real recording, its three groups' runs one after another: each node
// split over runs within half a point of its parent from the parent's run
// times its split from the split's run, as if one run had counted both.
TEST(MultiRunImport, RealZen5SplitNodesAgreeWithEachRunsOwnRatios) {
  const std::filesystem::path recordings = std::string(TOPDOWN_SOURCE_DIR) + "/../shared/recordings/zen5-perf-stat";
  if (!std::filesystem::exists(recordings)) GTEST_SKIP() << recordings << " is absent; this check needs it";
  for (const std::string workload : {"branchmiss", "icache", "ptrchase", "smc", "ucode"}) {
    for (const std::string repeat : {"r1", "r2"}) {
      SCOPED_TRACE(workload + "." + repeat);
      std::string joined;
      std::vector<std::map<std::string, double>> run;
      for (const char* group : {"g1", "g2", "g3"}) {
        const auto file = recordings / (workload + "." + repeat + "." + group + ".txt");
        joined += slurp(file.string());
        run.push_back(group_counts(file));
      }
      const double slots1 = 8 * run[0]["cpu/event=0x76/"], cycles2 = run[1]["cpu/event=0x76/"];
      const double frontend = run[0]["cpu/event=0x1a0,umask=0x01/"] / slots1;
      const double bad_speculation = (run[0]["cpu/event=0xaa,umask=0x07/"] - run[0]["cpu/event=0xc1/"]) / slots1;
      const double backend = run[0]["cpu/event=0x1a0,umask=0x1e/"] / slots1;
      const double mispredicts = run[2]["cpu/event=0xc3/"], resyncs = run[2]["cpu/event=0x9f,umask=0x01/"];
      const double memory_share = run[2]["cpu/event=0xd6,umask=0xa2/"] / run[2]["cpu/event=0xd6,umask=0x02/"];
      const std::map<std::string, double> expected = {
          {"Fetch_Bandwidth", frontend - run[1]["cpu/event=0x1a0,umask=0x01,cmask=0x8/"] / cycles2},
          {"Branch_Mispredicts", bad_speculation * mispredicts / (mispredicts + resyncs)},
          {"Machine_Clears", bad_speculation * resyncs / (mispredicts + resyncs)},
          {"Memory_Bound", backend * memory_share},
          {"Core_Bound", backend * (1 - memory_share)},
      };
      TempTree tree;
      const auto report = import_json(tree.write("runs.csv", joined).string(), "-l2 -v");
      for (const auto& entry : report["nodes"]) {
        const std::string name = entry["name"];
        SCOPED_TRACE(name);
        if (!expected.count(name)) {
          EXPECT_NE(entry["status"], "approximate") << "a split node the test does not expect";
          continue;
        }
        // A split node is approximate; one a hair below zero (Bad_Speculation
        // of ucode) is out of range, its raw value kept.
        EXPECT_TRUE(entry["status"] == "approximate" || entry["status"] == "out_of_range") << entry["status"];
        EXPECT_NEAR(entry["value"].get<double>(), expected.at(name), 0.005);
      }
    }
  }
}

}  // namespace
}  // namespace topdown::testing
