// record -g and record --call-graph dwarf, then report --children and
// --callers, live with the software model (no PMU needed): a workload of
// known call structure (tests/cli/call_paths_workload.cpp: leaf's work one
// third through outer_a, two thirds through outer_b) must come out so.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kWorkload = CALL_PATHS_WORKLOAD;
const std::string kSoftwareModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

class CallStacksLive : public ::testing::TestWithParam<std::string> {
 protected:
  void TearDown() override { ::unlink(file_.c_str()); }

  // The JSON records of report's sampled reports.
  std::vector<nlohmann::json> report(const std::string& options) {
    const auto reported = run_command(kTopdown + " report --json " + options + " " + file_);
    EXPECT_EQ(reported.exit_code, 0) << reported.err;
    std::vector<nlohmann::json> records;
    std::istringstream lines(reported.err);
    for (std::string line; std::getline(lines, line);) {
      nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
      if (record.is_object() && record.contains("tree")) records.push_back(std::move(record));
    }
    return records;
  }

  void record() {
    const auto recorded = run_command(kTopdown + " record --model " + kSoftwareModel + " " + GetParam() + " -o " +
                                      file_ + " -- " + kWorkload + " 4");
    ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  }

  static const nlohmann::json* find(const std::vector<nlohmann::json>& records, const std::string& tree,
                                    const std::string& function) {
    for (const auto& record : records) {
      if (record["tree"] == tree && record["function"].get<std::string>().starts_with(function)) return &record;
    }
    return nullptr;
  }

  std::string file_ = ::testing::TempDir() + "call_stacks_live." + std::to_string(::getpid()) + ".data";
};

// The callers' path through `caller` into leaf.
const nlohmann::json* path_through(const std::vector<nlohmann::json>& records, const std::string& caller) {
  for (const auto& record : records) {
    if (record["tree"] != "callers") continue;
    const auto path = record["call_path"].get<std::vector<std::string>>();
    if (path.size() >= 3 && path.back().starts_with("leaf(") && path[path.size() - 2].starts_with(caller) &&
        path[path.size() - 3] == "main") {
      return &record;
    }
  }
  return nullptr;
}

TEST_P(CallStacksLive, CallersSplitLeafByItsTwoPathsAndChildrenHoldTheirCallees) {
  record();
  const auto records = report("--children --callers leaf -v");
  const nlohmann::json* leaf = find(records, "children", "leaf(");
  const nlohmann::json* outer_a = find(records, "children", "outer_a(");
  const nlohmann::json* outer_b = find(records, "children", "outer_b(");
  const nlohmann::json* main = find(records, "children", "main");
  ASSERT_TRUE(leaf && outer_a && outer_b && main) << records.size() << " records";
  const nlohmann::json* via_a = path_through(records, "outer_a(");
  const nlohmann::json* via_b = path_through(records, "outer_b(");
  ASSERT_TRUE(via_a && via_b) << "the two paths main > outer_a > leaf and main > outer_b > leaf";

  // Every sample in leaf came one of the two ways.
  double paths = 0;
  for (const auto& record : records) {
    if (record["tree"] == "callers") paths += record["share"].get<double>();
  }
  EXPECT_NEAR(paths, (*leaf)["share"].get<double>(), 1e-9);
  // outer_a's inclusive tree holds all of leaf's samples through it. Sample
  // counts, not shares: main's share can equal the sum of its callees' shares
  // and lose to it by rounding.
  const auto samples = [](const nlohmann::json* record) { return (*record)["samples"].get<uint64_t>(); };
  EXPECT_GE(samples(outer_a), samples(via_a));
  EXPECT_GE(samples(outer_b), samples(via_b));
  EXPECT_GE(samples(main), samples(outer_a) + samples(outer_b));
  // The workload's split: a third of leaf's work through outer_a.
  const double through_a = (*via_a)["share"].get<double>() / paths;
  EXPECT_NEAR(through_a, 1.0 / 3, 0.08);
  EXPECT_GT((*leaf)["share"].get<double>(), 0.8) << "leaf does almost all the work";
  EXPECT_EQ((*via_a)["function"], (*leaf)["function"]);
}

TEST_P(CallStacksLive, TheTextReportHeadsEachTree) {
  record();
  const auto reported = run_command(kTopdown + " report --children --callers outer_b " + file_);
  ASSERT_EQ(reported.exit_code, 0) << reported.err;
  EXPECT_NE(reported.err.find("=== outer_b(unsigned long) [call_paths_workload] (children): "), std::string::npos)
      << reported.err;
  EXPECT_NE(reported.err.find(" > main > outer_b(unsigned long) [call_paths_workload]: "), std::string::npos)
      << reported.err;
}

TEST_P(CallStacksLive, CsvRowsSayTheirTreeAndCallPath) {
  record();
  const auto reported = run_command(kTopdown + " report --csv --children --callers leaf " + file_);
  ASSERT_EQ(reported.exit_code, 0) << reported.err;
  const std::string& csv = reported.err;
  EXPECT_NE(csv.find(",node_samples,tree,call_path\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nleaf(unsigned long),call_paths_workload,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",self,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",children,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",callers,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(";main;outer_a(unsigned long);leaf(unsigned long)\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(";main;outer_b(unsigned long);leaf(unsigned long)\n"), std::string::npos) << csv;
}

INSTANTIATE_TEST_SUITE_P(FramePointersAndDwarf, CallStacksLive, ::testing::Values("-g", "--call-graph dwarf"),
                         [](const auto& mode) { return mode.param == "-g" ? "FramePointers" : "Dwarf"; });

TEST(CallStacksCli, ReportWithoutCallStacksAndBadOptionsSayWhatToDo) {
  const std::string file = ::testing::TempDir() + "no_stacks." + std::to_string(::getpid()) + ".data";
  ASSERT_EQ(
      run_command(kTopdown + " record --model " + kSoftwareModel + " -o " + file + " -- " + kWorkload + " 1").exit_code,
      0);
  const auto no_stacks = run_command(kTopdown + " report --children " + file);
  EXPECT_EQ(no_stacks.exit_code, 125);
  EXPECT_NE(no_stacks.err.find("has no call stacks for --children or --callers: record with -g"), std::string::npos)
      << no_stacks.err;
  ::unlink(file.c_str());
  const auto size = run_command(kTopdown + " record --model " + kSoftwareModel + " --call-graph dwarf,100 -o " + file +
                                " -- " + kWorkload + " 1");
  EXPECT_EQ(size.exit_code, 125);
  EXPECT_NE(size.err.find("--call-graph dwarf,100: give the stack bytes to copy as a multiple of 8"), std::string::npos)
      << size.err;
  const auto mode = run_command(kTopdown + " record --model " + kSoftwareModel + " --call-graph lbr -o " + file +
                                " -- " + kWorkload + " 1");
  EXPECT_EQ(mode.exit_code, 125);
  EXPECT_NE(mode.err.find("--call-graph lbr: give fp"), std::string::npos) << mode.err;
  EXPECT_NE(::access(file.c_str(), F_OK), 0) << "no file for a refused recording";

  const auto printed = run_command(kTopdown + " record --model " + kSoftwareModel +
                                   " --print-perf --call-graph dwarf,4096 --max-stack 64 -- " + kWorkload);
  EXPECT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_NE(printed.err.find("perf record -F 1000 --call-graph dwarf,4096 --max-stack 64 -e "), std::string::npos)
      << printed.err;

  int kernel_limit = 0;
  std::ifstream("/proc/sys/kernel/perf_event_max_stack") >> kernel_limit;
  if (kernel_limit > 0 && kernel_limit < 1024) {
    const auto deep = run_command(kTopdown + " record --model " + kSoftwareModel + " -g --max-stack " +
                                  std::to_string(kernel_limit + 1) + " -o " + file + " -- " + kWorkload + " 1");
    EXPECT_EQ(deep.exit_code, 125);
    EXPECT_NE(deep.err.find("is more than the kernel allows (kernel.perf_event_max_stack)"), std::string::npos)
        << deep.err;
  }
}

}  // namespace
}  // namespace topdown::testing
