// topdown record and topdown report together, live: a workload whose two
// functions are known (topdown-demo faults-and-compute: fault_pages a quarter
// of the CPU time and every page fault, compute_only three quarters and
// none) must come out as such. With the software model everywhere; with the
// CPU's own model where there is a PMU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>

#include "run_command.h"

namespace {

using topdown::testing::run_command;

const std::string kTopdown = TOPDOWN_BIN;
const std::string kDemo = TOPDOWN_DEMO_BIN;
const std::string kSoftwareModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

class ProfileLive : public ::testing::Test {
 protected:
  void TearDown() override { ::unlink(file_.c_str()); }

  // The JSON records of `topdown report` of a recording of `command`, by function.
  std::map<std::string, nlohmann::json> profile(const std::string& record_options, const std::string& command,
                                                const std::string& report_options) {
    const auto recorded = run_command(kTopdown + " record " + record_options + " -o " + file_ + " -- " + command);
    EXPECT_EQ(recorded.exit_code, 0) << recorded.err;
    workload_output_ = recorded.out;
    const auto reported = run_command(kTopdown + " report --json -v " + report_options + " " + file_);
    EXPECT_EQ(reported.exit_code, 0) << reported.err;
    std::map<std::string, nlohmann::json> functions;
    std::istringstream lines(reported.err);  // like stat and import, report writes to stderr without -o
    for (std::string line; std::getline(lines, line);) {
      const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
      if (record.is_object() && record.contains("function")) {
        functions[record["function"].get<std::string>()] = record;
      }
    }
    return functions;
  }

  static const nlohmann::json* find_function(const std::map<std::string, nlohmann::json>& functions,
                                             const std::string& part) {
    for (const auto& [name, record] : functions) {
      if (name.find(part) != std::string::npos) return &record;
    }
    return nullptr;
  }

  static double event_value(const nlohmann::json& record, const std::string& event) {
    for (const auto& entry : record["events"]) {
      if (entry["name"] == event) return entry["value"].get<double>();
    }
    ADD_FAILURE() << "no " << event << " in " << record["function"];
    return 0;
  }

  static const nlohmann::json* node(const nlohmann::json& record, const std::string& name) {
    for (const auto& entry : record["nodes"]) {
      if (entry["name"] == name) return &entry;
    }
    return nullptr;
  }

  // What the demo says of its two functions: "fault_pages 0.2513 compute_only 0.7487 (...)".
  std::pair<double, double> measured_shares() const {
    const std::size_t line = workload_output_.find("fault_pages ");
    if (line == std::string::npos) {
      ADD_FAILURE() << "the demo printed no shares: " << workload_output_;
      return {-1, -1};
    }
    std::istringstream words(workload_output_.substr(line));
    std::string fault_name, compute_name;
    double faults = -1, compute = -1;
    words >> fault_name >> faults >> compute_name >> compute;
    EXPECT_EQ(compute_name, "compute_only") << workload_output_;
    return {faults, compute};
  }

  std::string workload_output_;
  std::string file_ = ::testing::TempDir() + "profile_live." + std::to_string(::getpid()) + ".data";
};

TEST_F(ProfileLive, SoftwareModelPutsEachFunctionsTimeAndFaultsWhereTheyAre) {
  const auto functions = profile("--model " + kSoftwareModel, kDemo + " faults-and-compute", "");
  const nlohmann::json* whole = find_function(functions, "[whole program]");
  const nlohmann::json* faults = find_function(functions, "demo::fault_pages");
  const nlohmann::json* compute = find_function(functions, "demo::compute_only");
  ASSERT_TRUE(whole && faults && compute) << "functions found: " << functions.size();
  // The demo aims at a quarter and three quarters and prints what each took
  // (its thread's CPU time around each call); the profile must find each
  // within 5 points of that.
  const auto [fault_share, compute_share] = measured_shares();
  EXPECT_NEAR(fault_share, 0.25, 0.15) << "the demo's calibration is far off";
  EXPECT_NEAR((*faults)["share"].get<double>(), fault_share, 0.05);
  EXPECT_NEAR((*compute)["share"].get<double>(), compute_share, 0.05);
  // Every page fault is fault_pages's; a sample charges those since the
  // previous one, so a few land on the first sample after the switch.
  const double all_faults = event_value(*whole, "page-faults");
  EXPECT_GT(all_faults, 10 * 40 * 256);
  EXPECT_GT(event_value(*faults, "page-faults"), 0.85 * all_faults);
  EXPECT_LT(event_value(*compute, "page-faults"), 0.10 * all_faults);
}

TEST_F(ProfileLive, ReportDrawsThePageOfTheWholeProgramAndEachFunction) {
  const std::string page = file_ + ".html";
  const auto functions = profile("--model " + kSoftwareModel, kDemo + " faults-and-compute", "--html " + page);
  ASSERT_NE(find_function(functions, "demo::fault_pages"), nullptr);
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  ::unlink(page.c_str());
  const std::string html = text.str();
  ASSERT_FALSE(html.empty()) << "no page at " << page;
  EXPECT_NE(html.find("[whole program]"), std::string::npos);
  EXPECT_NE(html.find("topdown::demo::fault_pages(unsigned long)"), std::string::npos);
  EXPECT_NE(html.find("topdown::demo::compute_only(unsigned long)"), std::string::npos);
  EXPECT_NE(html.find("(topdown record)"), std::string::npos) << "the header says how it was sampled";
}

// Where the CPU's own model counts: pointer chasing is Memory_Bound in its
// function, register arithmetic is not.
TEST_F(ProfileLive, CpuModelFindsMemoryBoundInTheChasingFunctionOnly) {
  if (!topdown::testing::has_pmu())
    GTEST_SKIP() << "no hardware PMU on this machine (a VM without a virtual PMU): needs real counters";
  const auto chase = profile("-l2", kDemo + " pointer-chase", "-l2");
  const nlohmann::json* chasing = find_function(chase, "chase_pointers");
  ASSERT_NE(chasing, nullptr);
  const nlohmann::json* memory = node(*chasing, "Memory_Bound");
  ASSERT_NE(memory, nullptr);
  EXPECT_TRUE((*memory)["over_threshold"].get<bool>()) << memory->dump();

  const auto alu = profile("-l2", kDemo + " alu", "-l2");
  const nlohmann::json* arithmetic = find_function(alu, "alu_chains");
  ASSERT_NE(arithmetic, nullptr);
  const nlohmann::json* alu_memory = node(*arithmetic, "Memory_Bound");
  ASSERT_NE(alu_memory, nullptr);
  EXPECT_FALSE((*alu_memory)["over_threshold"].get<bool>()) << alu_memory->dump();
}

}  // namespace
