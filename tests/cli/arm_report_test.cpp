// topdown report of `perf script` output from an Arm Neoverse V2: a
// leader-sampled group of Arm's events under perf's lower-case names
// (tests/data/perf-script-neoverse-v2.txt, perf script -F
// comm,tid,pid,time,period,event,ip,sym,dso,srcline), and the same file with
// the names qualified by the core PMU, as perf prints them on some kernels.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../support/temp_tree.h"
#include "function_reports.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::filesystem::path kScript =
    std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/perf-script-neoverse-v2.txt";

// What one function's samples add up to in the fixture (the leader,
// cpu_cycles, sampled every 10,000,000 cycles).
struct ArmCounts {
  double cycles;
  double stall_slot_frontend;
  double stall_slot_backend;
  double stall_slot;
  double op_retired;
  double op_spec;
  double br_mis_pred;
  int samples;
};

const ArmCounts kPointerChase{40e6, 32e6, 224e6, 256e6, 48e6, 60e6, 40e3, 4};
const ArmCounts kBranchy{30e6, 36e6, 24e6, 60e6, 60e6, 150e6, 600e3, 3};
const ArmCounts kInflate{20e6, 64e6, 16e6, 80e6, 70e6, 80e6, 20e3, 2};  // one sample left br_mis_pred out: 0

struct Level1 {
  double frontend;
  double backend;
  double retiring;
  double bad_speculation;
};

// Arm's Neoverse V2 formulas, 8 slots a cycle (Arm's telemetry data).
Level1 neoverse_v2_level1(const ArmCounts& c) {
  const double slots = 8 * c.cycles;
  const double issued = 1 - c.stall_slot / slots;
  const double retired_share = c.op_retired / c.op_spec;
  return {c.stall_slot_frontend / slots - c.br_mis_pred / c.cycles,
          c.stall_slot_backend / slots - 3 * c.br_mis_pred / c.cycles, retired_share * issued,
          (1 - retired_share) * issued + 4 * c.br_mis_pred / c.cycles};
}

double node_value(const nlohmann::json& report, const std::string& name) {
  for (const auto& node : report["nodes"]) {
    if (node["name"] == name) return node["value"].get<double>();
  }
  throw std::runtime_error("no node " + name + " in the report");
}

void expect_tree(const nlohmann::json& report, const ArmCounts& counts) {
  const Level1 expected = neoverse_v2_level1(counts);
  EXPECT_NEAR(node_value(report, "Frontend_Bound"), expected.frontend, 1e-12);
  EXPECT_NEAR(node_value(report, "Backend_Bound"), expected.backend, 1e-12);
  EXPECT_NEAR(node_value(report, "Retiring"), expected.retiring, 1e-12);
  EXPECT_NEAR(node_value(report, "Bad_Speculation"), expected.bad_speculation, 1e-12);
  EXPECT_EQ(report["samples"], counts.samples);
}

void expect_function_trees(const std::string& script) {
  TempTree tree;
  const std::string out = (tree.root() / "report.json").string();
  auto r = run_command(kTopdown + " report --cpu neoverse-v2 -v --json -o " + out + " " + script);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto objects = json_lines(slurp(out));
  ASSERT_EQ(objects.front()["function"], "[whole program]");
  EXPECT_EQ(objects.front()["clock_event"], "CPU_CYCLES");
  const double all_cycles = kPointerChase.cycles + kBranchy.cycles + kInflate.cycles;
  for (const auto& [name, counts] :
       {std::pair{"pointer_chase", kPointerChase}, {"branchy", kBranchy}, {"inflate", kInflate}}) {
    SCOPED_TRACE(name);
    const auto& function = function_object(objects, name);
    EXPECT_NEAR(function["share"].get<double>(), counts.cycles / all_cycles, 1e-12);
    expect_tree(function, counts);
  }
  EXPECT_EQ(function_object(objects, "inflate")["module"], "/usr/lib/aarch64-linux-gnu/libz.so.1.2.13");
  EXPECT_EQ(function_object(objects, "pointer_chase")["bottleneck"], "Backend_Bound");
  EXPECT_EQ(function_object(objects, "branchy")["bottleneck"], "Bad_Speculation");
  ArmCounts whole{};
  for (const ArmCounts& part : {kPointerChase, kBranchy, kInflate}) {
    whole.cycles += part.cycles;
    whole.stall_slot_frontend += part.stall_slot_frontend;
    whole.stall_slot_backend += part.stall_slot_backend;
    whole.stall_slot += part.stall_slot;
    whole.op_retired += part.op_retired;
    whole.op_spec += part.op_spec;
    whole.br_mis_pred += part.br_mis_pred;
    whole.samples += part.samples;
  }
  expect_tree(objects.front(), whole);
}

TEST(ArmReport, PerFunctionTreesOfANeoverseV2PerfScript) { expect_function_trees(kScript.string()); }

// perf names the events by their PMU on some kernels and on big.LITTLE
// systems; an event counted by its code shows as the raw code or event=.
TEST(ArmReport, PmuQualifiedEventNamesReadTheSame) {
  std::string text = slurp(kScript.string());
  const std::vector<std::pair<std::string, std::string>> spellings = {
      {" cpu_cycles:", " armv8_pmuv3_0/cpu_cycles/:"},
      {" stall_slot_frontend:", " armv8_pmuv3_0/stall_slot_frontend/:"},
      {" op_spec:", " armv8_pmuv3_0/r003b/:"},
      {" br_mis_pred:", " armv8_pmuv3_0/event=0x10/:"}};
  for (const auto& [plain, qualified] : spellings) {
    size_t replaced = 0;
    for (size_t at = text.find(plain); at != std::string::npos; at = text.find(plain, at + qualified.size())) {
      text.replace(at, plain.size(), qualified);
      ++replaced;
    }
    ASSERT_GT(replaced, 0u) << plain;
  }
  TempTree tree;
  expect_function_trees(tree.write("qualified.txt", text).string());
}

}  // namespace
}  // namespace topdown::testing
