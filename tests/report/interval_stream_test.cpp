#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/report.h"
#include "support/tiny_model.h"

namespace topdown::report {
namespace {

// Two intervals of the tiny model with known values, and the whole run.
struct Stream {
  model::Model model = testing::tiny_model();
  const std::vector<std::string> nodes = {"Busy", "Busy_Memory", "Busy_Core", "Idle", "Hyper", "IPC"};
  RunInfo run;

  Stream() {
    run.model_name = "tiny";
    run.model_title = "Tiny test model";
    run.command = {"./app"};
    run.groups = 1;
  }

  // Busy = busy / (4 * 1000 cycles), Idle the rest.
  counts::Sample sample(double busy_slots) const {
    counts::Sample s;
    s.events["cycles"] = {1000, 10, 10};
    s.events["busy_slots"] = {busy_slots, 10, 10};
    s.events["idle_slots"] = {4000 - busy_slots, 10, 10};
    s.events["mem_stalls"] = {300, 10, 10};
    s.events["all_stalls"] = {400, 10, 10};
    s.events["instructions"] = {2500, 10, 10};
    s.duration_s = 0.2;
    return s;
  }
  eval::Evaluation evaluate(const counts::Sample& s) const { return eval::evaluate(model, nodes, s, {}); }

  std::string three_records(Format format) {
    IntervalStream stream(format, TextOptions{});
    const counts::Sample first = sample(3000);
    const counts::Sample second = sample(1000);
    const counts::Sample whole = sample(2000);
    RunInfo whole_run = run;
    whole_run.elapsed_s = 0.4;
    whole_run.exit_code = 0;
    RunInfo interval_run = run;
    interval_run.elapsed_s = 0.2;
    std::string out = stream.interval(evaluate(first), first, interval_run, 0.2);
    out += stream.interval(evaluate(second), second, interval_run, 0.4);
    return out + stream.summary(evaluate(whole), whole, whole_run);
  }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(IntervalStream, ColumnsShowTimeLevelOneAndTheBottleneck) {
  Stream s;
  EXPECT_EQ(s.three_records(Format::Columns),
            "#     time    Busy     Idle    Hyper   Bottleneck\n"
            "     0.200   75.0%    25.0%     0.0%   Busy_Memory\n"
            "     0.400   25.0%    75.0%     0.0%   Idle\n"
            "     total   50.0%    50.0%     0.0%   Busy_Memory\n");
}

TEST(IntervalStream, ColumnsMarkEstimatesAndNa) {
  Stream s;
  counts::Sample multiplexed = s.sample(3000);
  multiplexed.events["busy_slots"] = {1500, 10, 5};
  multiplexed.events["idle_slots"] = {0, 10, 0};
  const eval::Evaluation evaluation = s.evaluate(multiplexed);
  // Idle was never counted, so level 1 is incomplete and there is no bottleneck.
  EXPECT_EQ(render_columns_row(evaluation, 1.5), "     1.500   75.0%~     n/a     0.0%   -\n");
}

TEST(IntervalStream, CsvHasATimeColumnAndItsHeaderOnce) {
  Stream s;
  const std::vector<std::string> lines = lines_of(s.three_records(Format::Csv));
  ASSERT_EQ(lines.size(), 1u + 3 * 6);
  EXPECT_EQ(lines[0],
            "time,kind,name,level,parent,vendor_name,value,unit,over_threshold,bottleneck,counted_share,status,"
            "missing_events");
  EXPECT_EQ(lines[1], "0.2,node,Busy,1,,,0.75,fraction,1,0,1.0000,ok,");
  EXPECT_EQ(lines[7], "0.4,node,Busy,1,,,0.25,fraction,1,0,1.0000,ok,");
  EXPECT_EQ(lines[13], ",node,Busy,1,,,0.5,fraction,1,0,1.0000,ok,") << "the summary's time is empty";
  EXPECT_EQ(lines[18], ",info,IPC,0,,,2.5,instructions/cycle,0,0,1.0000,ok,");
}

TEST(IntervalStream, JsonIsOneObjectPerLineWithTime) {
  Stream s;
  const std::vector<std::string> lines = lines_of(s.three_records(Format::Json));
  ASSERT_EQ(lines.size(), 3u);
  const auto first = nlohmann::json::parse(lines[0]);
  EXPECT_DOUBLE_EQ(first["time"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(first["elapsed_s"].get<double>(), 0.2);
  EXPECT_TRUE(first["exit_code"].is_null());
  EXPECT_DOUBLE_EQ(first["nodes"][0]["value"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(lines[1])["time"].get<double>(), 0.4);
  const auto summary = nlohmann::json::parse(lines[2]);
  EXPECT_TRUE(summary["time"].is_null());
  EXPECT_EQ(summary["exit_code"], 0);
  EXPECT_DOUBLE_EQ(summary["elapsed_s"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(summary["nodes"][0]["value"].get<double>(), 0.5);
}

TEST(IntervalStream, TextRepeatsTheReportUnderTimeHeadings) {
  Stream s;
  const std::string text = s.three_records(Format::Text);
  EXPECT_EQ(text.rfind("=== time 0.2 s ===\ntopdown: Tiny test model (tiny), ./app, 0.20 s\n", 0), 0u) << text;
  EXPECT_NE(text.find("\n\n=== time 0.4 s ===\ntopdown: Tiny test model (tiny), ./app, 0.20 s\n"), std::string::npos);
  EXPECT_NE(text.find("\n\n=== whole run ===\ntopdown: Tiny test model (tiny), ./app, 0.40 s\n"), std::string::npos);
  EXPECT_NE(text.find("  Busy             75.0%"), std::string::npos) << text;
}

TEST(IntervalStream, ASummaryAloneStartsWithTheHeader) {
  Stream s;
  IntervalStream columns(Format::Columns, TextOptions{});
  const counts::Sample whole = s.sample(2000);
  EXPECT_EQ(columns.summary(s.evaluate(whole), whole, s.run),
            "#     time    Busy     Idle    Hyper   Bottleneck\n"
            "     total   50.0%    50.0%     0.0%   Busy_Memory\n");
  IntervalStream csv(Format::Csv, TextOptions{});
  EXPECT_EQ(csv.summary(s.evaluate(whole), whole, s.run).rfind("time,kind,name,", 0), 0u);
}

TEST(RunInfoReport, AKilledWorkloadAndTheCountedTargetAreShown) {
  Stream s;
  const counts::Sample whole = s.sample(2000);
  RunInfo run = s.run;
  run.command = {"sleep", "9"};
  run.cpus = {0, 1};
  run.signal = 2;
  run.exit_code = 130;
  run.elapsed_s = 1.25;
  const std::string text = render_text(s.evaluate(whole), whole, run, TextOptions{});
  EXPECT_EQ(text.rfind("topdown: Tiny test model (tiny), sleep 9, CPUs 0,1, 1.25 s, killed by SIGINT\n", 0), 0u)
      << text;
  const auto json = nlohmann::json::parse(render_json(s.evaluate(whole), whole, run));
  EXPECT_EQ(json["signal"], 2);
  EXPECT_EQ(json["exit_code"], 130);
  EXPECT_EQ(json["cpus"], nlohmann::json::array({0, 1}));
  EXPECT_EQ(json["pids"], nlohmann::json::array());
  run.cpus.clear();
  run.command.clear();
  run.pids = {42};
  run.signal.reset();
  EXPECT_EQ(render_text(s.evaluate(whole), whole, run, TextOptions{}).rfind("topdown: Tiny test model (tiny), process 42, 1.25 s\n", 0), 0u);
}

TEST(SignalName, SpellsTheSignal) {
  EXPECT_EQ(signal_name(2), "SIGINT");
  EXPECT_EQ(signal_name(15), "SIGTERM");
  EXPECT_EQ(signal_name(9), "SIGKILL");
}

}  // namespace
}  // namespace topdown::report
