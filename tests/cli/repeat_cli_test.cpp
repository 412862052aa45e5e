// stat -r N, end to end with the software-event model (counts without a PMU).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kStat = kTopdown + " stat --model " + std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

TEST(RepeatCli, JsonHasEachNodesMeanSpreadAndInterval) {
  auto r = run_command(kStat + " -r 5 --json -- " + TOPDOWN_DEMO_BIN + " alu");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.err.substr(r.err.find('{')));
  EXPECT_EQ(report["runs"], 5);
  EXPECT_NEAR(report["level1_sum"].get<double>(), 1.0, 1e-9);
  for (const auto& node : report["nodes"]) {
    SCOPED_TRACE(node["name"].get<std::string>());
    EXPECT_EQ(node["runs"], 5);
    const double value = node["value"].get<double>();
    EXPECT_GE(node["stddev"].get<double>(), 0);
    EXPECT_LE(node["ci95"][0].get<double>(), value);
    EXPECT_GE(node["ci95"][1].get<double>(), value);
    // The interval is t(0.975, 4) = 2.776 standard errors wide on each side.
    EXPECT_NEAR(node["ci95"][1].get<double>() - value, 2.776445 * node["stddev"].get<double>() / std::sqrt(5.0), 1e-6);
    EXPECT_TRUE(node["unstable"].is_boolean());
  }
  // The bottleneck is the larger of the two level-1 means.
  const auto& nodes = report["nodes"];
  const bool on_cpu_larger = nodes[0]["value"].get<double>() > nodes[1]["value"].get<double>();
  EXPECT_EQ(report["bottleneck"], on_cpu_larger ? "On_CPU" : "Off_CPU");
}

TEST(RepeatCli, HtmlDrawsTheMeansTree) {
  TempTree tree;
  const auto page = tree.root() / "page.html";
  const auto json_file = tree.root() / "report.json";
  const CommandResult r =
      run_command(kStat + " -r 3 --json -o " + json_file.string() + " --html " + page.string() + " -- true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(slurp(json_file.string()));
  const std::string html = slurp(page.string());
  // Each level-1 node's box holds the runs' mean, as the JSON has it.
  for (const auto& node : report["nodes"]) {
    if (node["level"] != 1 || node["value"].is_null()) continue;
    const std::string name = node["name"];
    const std::string mean = fmt::format("{:.1f}%", std::clamp(node["value"].get<double>(), 0.0, 1.0) * 100);
    EXPECT_NE(html.find("data-node=\"" + name + "\" data-value=\"" + mean), std::string::npos) << name << ": " << mean;
  }
  EXPECT_NE(html.find("the command ran 3 times"), std::string::npos);
}

TEST(RepeatCli, CsvAddsTheSpreadColumnsAndTextSaysHowManyRuns) {
  auto csv = run_command(kStat + " -r 3 --csv -- true");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  std::istringstream lines(csv.err);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "kind,name,level,parent,vendor_name,value,unit,over_threshold,bottleneck,counted_share,status,"
            "missing_events,runs,stddev,ci95_low,ci95_high,unstable");
  std::string on_cpu;
  std::getline(lines, on_cpu);
  EXPECT_EQ(on_cpu.rfind("node,On_CPU,1,", 0), 0u) << on_cpu;
  EXPECT_NE(on_cpu.find(",ok,,3,"), std::string::npos) << on_cpu;

  auto text = run_command(kStat + " -r 2 -- true");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.err.find(", 2 runs, mean"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("Spread (95%)"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("the command ran 2 times"), std::string::npos) << text.err;
}

TEST(RepeatCli, ExitStatusIsTheFirstFailingRunsAndNoMultiplexRunsEachGroupNTimes) {
  auto r = run_command(kStat + " -r 2 --json -- sh -c 'exit 3'");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  auto split = run_command(kStat + " -r 3 --no-multiplex --counters 1 --json -- true");
  ASSERT_EQ(split.exit_code, 0) << split.err;
  const auto report = nlohmann::json::parse(split.err.substr(split.err.find('{')));
  EXPECT_EQ(report["runs"], 3);
  EXPECT_NE(report["warnings"].back().get<std::string>().find("each of the"), std::string::npos) << report["warnings"];
}

// A run that a signal ends ends the series: the report is of the runs so far.
TEST(RepeatCli, ASignalEndsTheSeries) {
  auto r = run_command(kStat + " -r 3 --json -- sh -c 'kill -TERM $$'");
  EXPECT_EQ(r.exit_code, 128 + 15) << r.err;
  const auto report = nlohmann::json::parse(r.err.substr(r.err.find('{')));
  EXPECT_EQ(report["runs"], 1);
  EXPECT_EQ(report["signal"], 15);
  EXPECT_NE(report["warnings"].back().get<std::string>().find("ran 1 time ("), std::string::npos) << report["warnings"];
  EXPECT_NE(report["warnings"].back().get<std::string>().find("stopped after 1 of 3 runs by SIGTERM"),
            std::string::npos)
      << report["warnings"];
}

TEST(RepeatCli, RepeatCannotGoWithIntervalsOrRunningProcesses) {
  auto intervals = run_command(kStat + " -r 3 -I 100 -- true");
  EXPECT_EQ(intervals.exit_code, 125);
  EXPECT_EQ(intervals.err,
            "topdown: -r repeats a command and reports the runs' means; its intervals would not line "
            "up: leave out -I or -r\n");
  auto attached = run_command(kStat + " -r 3 -p 1");
  EXPECT_EQ(attached.exit_code, 125);
  EXPECT_NE(attached.err.find("give a command instead"), std::string::npos) << attached.err;
}

}  // namespace
}  // namespace topdown::testing
