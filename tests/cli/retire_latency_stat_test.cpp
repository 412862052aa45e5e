// stat --retire-latencies FILE, live on software events
// (tests/data/software_retire_latency.model: page faults weighed by a latency
// the run must be given), so that it runs on every machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/temp_tree.h"
#include "json_reports.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software_retire_latency.model";

class RetireLatencyLive : public ::testing::Test {
 protected:
  // The one report of `stat --info --json` of `true`.
  nlohmann::json stat(const std::string& options) const {
    const auto out = tree_.root() / "stat.json";
    const CommandResult r = run_command(kTopdown + " stat --model " + kModel + " --info --json -o " + out.string() +
                                        " " + options + " -- true");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto reports = json_reports(slurp(out.string()));
    EXPECT_EQ(reports.size(), 1u);
    return reports.empty() ? nlohmann::json() : reports.front();
  }

  static const nlohmann::json& named(const nlohmann::json& list, const std::string& name) {
    for (const nlohmann::json& entry : list) {
      if (entry["name"] == name) return entry;
    }
    ADD_FAILURE() << "no " << name << " in " << list.dump();
    static const nlohmann::json none;
    return none;
  }

  std::string latency_file(const std::string& mean) const {
    return tree_.write("retire_latency.json", R"({"Data": {"page-faults": {"MEAN": )" + mean + "}}}").string();
  }

  TempTree tree_;
};

TEST_F(RetireLatencyLive, TheFilesMeanWeighsTheCountedEvent) {
  const nlohmann::json report = stat("--retire-latencies " + latency_file("2.5"));
  const double faults = named(report["events"], "page-faults")["value"].get<double>();
  ASSERT_GT(faults, 0) << "starting a process faults pages";
  const nlohmann::json& cycles = named(report["info"], "Page_Fault_Cycles");
  EXPECT_EQ(cycles["status"], "ok");
  EXPECT_DOUBLE_EQ(cycles["value"].get<double>(), faults * 2.5);
}

TEST_F(RetireLatencyLive, WithoutTheFileTheMetricIsNotKnownAndSaysWhy) {
  const nlohmann::json report = stat("");
  const nlohmann::json& cycles = named(report["info"], "Page_Fault_Cycles");
  EXPECT_TRUE(cycles["value"].is_null()) << cycles.dump();
  EXPECT_EQ(cycles["unknown_inputs"], nlohmann::json::array({"Retire_Latency_page_faults"}));
}

TEST_F(RetireLatencyLive, ABadFileStopsBeforeTheCommandRuns) {
  const auto out = tree_.root() / "stat.json";
  const auto ran = tree_.root() / "ran";
  const CommandResult r = run_command(kTopdown + " stat --model " + kModel + " --json -o " + out.string() +
                                      " --retire-latencies " + latency_file("-1") + " -- touch " + ran.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("retire latency file " + (tree_.root() / "retire_latency.json").string()), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(ran));
}

}  // namespace
}  // namespace topdown::testing
