// Meteor Lake's nodes that weigh events by their retire latencies, which
// perfmon publishes no means of: n/a until the run gives them, from perf's
// TPEBS rows (EVENT:R) or --retire-latencies FILE.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../support/temp_tree.h"
#include "json_reports.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
constexpr double kClocks = 1e6;
constexpr double kReturnMispredicts = 4000;
const std::string kCounts = "CPU_CLK_UNHALTED.THREAD 1000000\nBR_MISP_RETIRED.RET_COST 4000\n";

class RetireLatencyImport : public ::testing::Test {
 protected:
  // Ret_Mispredicts of `mtl` as `import -l 3 --json` reports it.
  nlohmann::json ret_mispredicts(const std::string& counts, const std::string& options = "") const {
    const auto file = tree_.write("mtl.counts", counts);
    const auto out = tree_.root() / "report.json";
    const CommandResult r = run_command(kTopdown + " import --cpu mtl --smt off -l 3 --json -o " + out.string() + " " +
                                        options + " " + file.string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const nlohmann::json& report : json_reports(slurp(out.string()))) {
      for (const nlohmann::json& node : report["nodes"]) {
        if (node["name"] == "Ret_Mispredicts") return node;
      }
    }
    ADD_FAILURE() << "no Ret_Mispredicts in the report: " << r.err;
    return {};
  }

  std::string latency_file(double mean) const {
    return tree_
        .write("mtl_retire_latency.json",
               R"({"Data": {"BR_MISP_RETIRED.RET_COST": {"MEAN": )" + std::to_string(mean) + "}}}")
        .string();
  }

  TempTree tree_;
};

TEST_F(RetireLatencyImport, WithoutALatencyTheNodeIsNotApplicableAndSaysWhy) {
  const nlohmann::json node = ret_mispredicts(kCounts);
  EXPECT_EQ(node["status"], "n/a");
  EXPECT_EQ(node["unknown_inputs"], nlohmann::json::array({"Retire_Latency_BR_MISP_RETIRED_RET_COST"}));
}

TEST_F(RetireLatencyImport, TheTextSaysHowToGiveIt) {
  const auto file = tree_.write("mtl.counts", kCounts);
  const auto out = tree_.root() / "report.txt";
  const CommandResult r =
      run_command(kTopdown + " import --cpu mtl --smt off -l 3 -v -o " + out.string() + " " + file.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(slurp(out.string())
                .find("(not known: Retire_Latency_BR_MISP_RETIRED_RET_COST; a mean retire latency: "
                      "import perf's EVENT:R rows or give --retire-latencies FILE)"),
            std::string::npos);
}

TEST_F(RetireLatencyImport, PerfsRetireLatencyRowsGiveIt) {
  const nlohmann::json node = ret_mispredicts(kCounts + "BR_MISP_RETIRED.RET_COST:R 30\n");
  EXPECT_EQ(node["status"], "ok");
  EXPECT_DOUBLE_EQ(node["value"].get<double>(), kReturnMispredicts * 30 / kClocks);
}

TEST_F(RetireLatencyImport, ALatencyFileGivesIt) {
  const nlohmann::json node = ret_mispredicts(kCounts, "--retire-latencies " + latency_file(25));
  EXPECT_DOUBLE_EQ(node["value"].get<double>(), kReturnMispredicts * 25 / kClocks);
}

TEST_F(RetireLatencyImport, TheRunsOwnRowsComeBeforeTheFile) {
  const nlohmann::json node =
      ret_mispredicts(kCounts + "BR_MISP_RETIRED.RET_COST:R 30\n", "--retire-latencies " + latency_file(25));
  EXPECT_DOUBLE_EQ(node["value"].get<double>(), kReturnMispredicts * 30 / kClocks);
}

TEST_F(RetireLatencyImport, ABadLatencyFileStopsBeforeAnyOutput) {
  const auto counts = tree_.write("mtl.counts", kCounts);
  const auto bad = tree_.write("bad.json", R"({"Data": {"BR_MISP_RETIRED.RET_COST": {"MEAN": "slow"}}})");
  const auto out = tree_.root() / "report.json";
  const CommandResult r = run_command(kTopdown + " import --cpu mtl --json -o " + out.string() +
                                      " --retire-latencies " + bad.string() + " " + counts.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("retire latency file " + bad.string() + ": event BR_MISP_RETIRED.RET_COST has no MEAN"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

// --print-perf (on stderr, where reports go) says how perf measures the latencies Intel publishes no mean of
// (Meteor Lake: all of them; Granite Rapids: two), and says nothing where
// none are needed (Skylake).
TEST(RetireLatencyPrintPerf, NamesTheEventsPerfMustMeasure) {
  const CommandResult mtl = run_command(kTopdown + " stat --cpu mtl --print-perf -l 3 -- true");
  ASSERT_EQ(mtl.exit_code, 0) << mtl.err;
  EXPECT_NE(mtl.err.find("#   --record-tpebs -e BR_MISP_RETIRED.COND_NTAKEN_COST:R,"), std::string::npos) << mtl.err;
  EXPECT_NE(mtl.err.find(",BR_MISP_RETIRED.RET_COST:R,"), std::string::npos);
  const CommandResult gnr = run_command(kTopdown + " stat --cpu gnr --print-perf -l 3 -- true");
  ASSERT_EQ(gnr.exit_code, 0) << gnr.err;
  EXPECT_NE(
      gnr.err.find("#   --record-tpebs -e MEM_INST_RETIRED.STLB_MISS_LOADS:R,MEM_INST_RETIRED.STLB_MISS_STORES:R\n"),
      std::string::npos)
      << gnr.err;
  const CommandResult skl = run_command(kTopdown + " stat --cpu skl --print-perf -l 3 -- true");
  ASSERT_EQ(skl.exit_code, 0) << skl.err;
  EXPECT_EQ(skl.err.find("--record-tpebs"), std::string::npos);
}

}  // namespace
}  // namespace topdown::testing
