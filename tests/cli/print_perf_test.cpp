// `topdown stat --cpu hsw --print-perf` prints the perf command that collects
// what the Haswell model needs, for users who count with perf alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "cpu/cpu_info.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find('\n', at);
    lines.push_back(text.substr(at, end - at));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

TEST(PrintPerf, HaswellLevelSixIsOnePerfLinePlusTheUncoreLine) {
  auto r = run_command(kTopdown + " stat --cpu hsw --smt on -l6 --info --print-perf -- ./app 'two words'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 6u) << r.err;  // 2 comments, core line, 2 comments, uncore line
  EXPECT_EQ(lines[0], "# count with perf, then analyse: topdown import --cpu hsw --smt on -l 6 --info perf.csv");
  EXPECT_EQ(lines[1], "# the groups rotate on the counters: values are multiplexed estimates");
  const std::string& core = lines[2];
  EXPECT_TRUE(core.starts_with("perf stat -x, -o perf.csv -e '{cpu/config=")) << core;
  EXPECT_TRUE(core.ends_with(",msr/tsc/' -- ./app 'two words'")) << core;
  // Events by the model's names, the offcore response with its MSR value,
  // modifiers as perf's u/k suffixes, the TSC by perf's own name.
  for (const char* spelling :
       {"name=UOPS_DISPATCHED_PORT.PORT_7/", "name=UOPS_EXECUTED.CORE:i1:c1/",
        "config=0x1b7,config1=0x10003c0002,name=OFFCORE_RESPONSE.DEMAND_RFO.L3_HIT.HITM_OTHER_CORE/",
        "name=BR_INST_RETIRED.FAR_BRANCH:USER/u", "name=CPU_CLK_UNHALTED.THREAD_P:SUP/k"}) {
    EXPECT_NE(core.find(spelling), std::string::npos) << spelling;
  }
  EXPECT_EQ(core.find("UNC_"), std::string::npos);
  EXPECT_GT(std::count(core.begin(), core.end(), '{'), 15);
  EXPECT_TRUE(lines[3].starts_with("# uncore events count per socket, system-wide only"));
  const std::string& uncore = lines[5];
  EXPECT_TRUE(uncore.starts_with("perf stat -a -x, -o perf-uncore.csv -e '")) << uncore;
  EXPECT_NE(uncore.find("uncore_arb/config=0x181,name=UNC_ARB_TRK_REQUESTS.ALL/"), std::string::npos);
  EXPECT_NE(uncore.find("uncore_cbox_0/config=0xff,name=UNC_CLOCK.SOCKET/"), std::string::npos);
}

TEST(PrintPerf, LevelOneWithoutSmtIsOneGroup) {
  auto r = run_command(kTopdown + " stat --cpu hsw --smt off -l1 --print-perf -- true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 2u) << r.err;
  EXPECT_EQ(std::count(lines[1].begin(), lines[1].end(), '{'), 1) << lines[1];
  EXPECT_NE(lines[1].find("name=IDQ_UOPS_NOT_DELIVERED.CORE/"), std::string::npos);
  EXPECT_NE(lines[1].find("name=INT_MISC.RECOVERY_CYCLES/"), std::string::npos);  // not _ANY without SMT
  EXPECT_EQ(lines[1].find("_ANY/"), std::string::npos) << lines[1];
}

TEST(PrintPerf, AnotherVendorsModelCannotCountHere) {
  if (cpu::read_cpuid().vendor != cpu::Vendor::Amd) GTEST_SKIP() << "needs an AMD machine";
  auto r = run_command(kTopdown + " stat --cpu hsw -- true");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("--cpu hsw chose a model for Intel CPUs (Intel Haswell client (TMA 4.5)), whose events this "
                       "AMD CPU cannot count"),
            std::string::npos)
      << r.err;
}

// What --print-perf asks perf to count is exactly what the model needs: a
// perf file with those names (as perf prints them) imports with no node
// missing an event, and gives the values a counts file of the same counts gives.
TEST(PrintPerf, ItsPerfFileImportsCompletely) {
  auto plan = run_command(kTopdown + " stat --cpu hsw --smt on -l3 --print-perf -- ./app");
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const std::string perf_line = lines_of(plan.err).at(2);
  std::vector<std::string> names;
  const std::regex named("name=([^/]+)/|,(msr/tsc/)");
  for (std::sregex_iterator it(perf_line.begin(), perf_line.end(), named), end; it != end; ++it) {
    names.push_back((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
  }
  ASSERT_GT(names.size(), 30u);

  const std::string dir = ::testing::TempDir() + "/print_perf_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream perf_file(dir + "/perf.csv");
  std::ofstream counts_file(dir + "/counts.txt");
  perf_file << "# started on Sun Nov 22 10:00:00 2026\n\n";
  counts_file << "smt_enabled 1\n";
  for (size_t i = 0; i < names.size(); ++i) {
    const long value = 1000000 + static_cast<long>(i) * 7919;  // distinct, so a mix-up shows
    perf_file << value << ",," << names[i] << ",2000000000,100.00,,\n";
    counts_file << names[i] << " " << value << "\n";
  }
  perf_file.close();
  counts_file.close();

  const std::string import = kTopdown + " import --cpu hsw --smt on -l3 --json -o ";
  auto from_perf = run_command(import + dir + "/perf.json " + dir + "/perf.csv");
  auto from_counts = run_command(import + dir + "/counts.json " + dir + "/counts.txt");
  ASSERT_EQ(from_perf.exit_code, 0) << from_perf.err;
  ASSERT_EQ(from_counts.exit_code, 0) << from_counts.err;
  const auto perf_report = nlohmann::json::parse(slurp(dir + "/perf.json"));
  const auto counts_report = nlohmann::json::parse(slurp(dir + "/counts.json"));
  ASSERT_EQ(perf_report["nodes"].size(), counts_report["nodes"].size());
  ASSERT_EQ(perf_report["nodes"].size(), 29u);  // levels 1-3: 4 + 8 + 17
  for (size_t i = 0; i < perf_report["nodes"].size(); ++i) {
    const auto& node = perf_report["nodes"][i];
    SCOPED_TRACE(node["name"].get<std::string>());
    EXPECT_TRUE(node["missing_events"].empty()) << node["missing_events"];
    EXPECT_EQ(node["value"], counts_report["nodes"][i]["value"]);
  }
  EXPECT_TRUE(perf_report["extra_events"].empty()) << perf_report["extra_events"];
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace topdown::testing
