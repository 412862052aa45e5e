#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/csv.h"
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

  Report report(const counts::Sample& s, double elapsed_s, const std::string& scope = "") const {
    RunInfo record_run = run;
    record_run.elapsed_s = elapsed_s;
    return {scope, evaluate(s), s, record_run};
  }

  // Two intervals, then the whole run.
  std::string three_records(Format format) {
    ReportWriter writer(Layout{format, TextOptions{}, true, false});
    Report whole = report(sample(2000), 0.4);
    whole.run.exit_code = 0;
    std::string out = writer.write(0.2, {report(sample(3000), 0.2)});
    out += writer.write(0.4, {report(sample(1000), 0.2)});
    return out + writer.write(std::nullopt, {whole});
  }

  // Two units (CPU0 busier than CPU1) in each record of `layout`: an
  // interval's (when timed), then the whole run's.
  std::string unit_records(Format format, bool timed) {
    ReportWriter writer(Layout{format, TextOptions{}, timed, true});
    std::string out;
    if (timed) out += writer.write(0.2, {report(sample(3000), 0.2, "CPU0"), report(sample(1000), 0.2, "CPU1")});
    return out + writer.write(std::nullopt, {report(sample(2000), 0.4, "CPU0"), report(sample(2000), 0.4, "CPU1")});
  }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(ReportWriter, ColumnsShowTimeLevelOneAndTheBottleneck) {
  Stream s;
  EXPECT_EQ(s.three_records(Format::Columns),
            "#     time    Busy     Idle    Hyper   Bottleneck\n"
            "     0.200   75.0%    25.0%     0.0%   Busy_Memory\n"
            "     0.400   25.0%    75.0%     0.0%   Idle\n"
            "     total   50.0%    50.0%     0.0%   Busy_Memory\n");
}

TEST(ReportWriter, ColumnsMarkEstimatesAndNa) {
  Stream s;
  counts::Sample multiplexed = s.sample(3000);
  multiplexed.events["busy_slots"] = {1500, 10, 5};
  multiplexed.events["idle_slots"] = {0, 10, 0};
  const eval::Evaluation evaluation = s.evaluate(multiplexed);
  // Idle was never counted, so level 1 is incomplete and there is no bottleneck.
  EXPECT_EQ(render_columns_row(evaluation, 1.5), "     1.500   75.0%~     n/a     0.0%   -\n");
}

TEST(ReportWriter, CsvHasATimeColumnAndItsHeaderOnce) {
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

TEST(ReportWriter, JsonIsOneObjectPerLineWithTime) {
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

TEST(ReportWriter, TextRepeatsTheReportUnderTimeHeadings) {
  Stream s;
  const std::string text = s.three_records(Format::Text);
  EXPECT_EQ(text.rfind("=== time 0.2 s ===\ntopdown: Tiny test model (tiny), ./app, 0.20 s\n", 0), 0u) << text;
  EXPECT_NE(text.find("\n\n=== time 0.4 s ===\ntopdown: Tiny test model (tiny), ./app, 0.20 s\n"), std::string::npos);
  EXPECT_NE(text.find("\n\n=== whole run ===\ntopdown: Tiny test model (tiny), ./app, 0.40 s\n"), std::string::npos);
  EXPECT_NE(text.find("  Busy             75.0%"), std::string::npos) << text;
}

TEST(ReportWriter, ASummaryAloneStartsWithTheHeader) {
  Stream s;
  ReportWriter columns(Layout{Format::Columns, TextOptions{}, true, false});
  EXPECT_EQ(columns.write(std::nullopt, {s.report(s.sample(2000), 0.4)}),
            "#     time    Busy     Idle    Hyper   Bottleneck\n"
            "     total   50.0%    50.0%     0.0%   Busy_Memory\n");
  ReportWriter csv(Layout{Format::Csv, TextOptions{}, true, false});
  EXPECT_EQ(csv.write(std::nullopt, {s.report(s.sample(2000), 0.4)}).rfind("time,kind,name,", 0), 0u);
}

TEST(ReportWriter, ASingleReportIsThePlainReport) {
  Stream s;
  const Report whole = s.report(s.sample(2000), 0.4);
  const auto single = [&](Format format) {
    return ReportWriter(Layout{format, TextOptions{}, false, false}).write(std::nullopt, {whole});
  };
  EXPECT_EQ(single(Format::Text), render_text(whole.evaluation, whole.sample, whole.run, TextOptions{}));
  EXPECT_EQ(single(Format::Csv), render_csv(whole.evaluation, whole.sample, whole.run));
  const std::string json = single(Format::Json);
  EXPECT_EQ(json, render_json(whole.evaluation, whole.sample, whole.run));
  EXPECT_EQ(json.rfind("{\n  \"", 0), 0u) << "indented";
  EXPECT_FALSE(nlohmann::json::parse(json).contains("time"));
  EXPECT_FALSE(nlohmann::json::parse(json).contains("scope"));
}

TEST(ReportWriter, CsvOfUnitsHasAScopeColumnAfterTheTimeAndItsHeaderOnce) {
  Stream s;
  const std::vector<std::string> lines = lines_of(s.unit_records(Format::Csv, true));
  ASSERT_EQ(lines.size(), 1u + 4 * 6);
  EXPECT_EQ(lines[0],
            "time,scope,kind,name,level,parent,vendor_name,value,unit,over_threshold,bottleneck,counted_share,"
            "status,missing_events");
  EXPECT_EQ(lines[1], "0.2,CPU0,node,Busy,1,,,0.75,fraction,1,0,1.0000,ok,");
  EXPECT_EQ(lines[7], "0.2,CPU1,node,Busy,1,,,0.25,fraction,1,0,1.0000,ok,");
  EXPECT_EQ(lines[13], ",CPU0,node,Busy,1,,,0.5,fraction,1,0,1.0000,ok,") << "the whole run's time is empty";
  EXPECT_EQ(lines[24], ",CPU1,info,IPC,0,,,2.5,instructions/cycle,0,0,1.0000,ok,");
}

TEST(ReportWriter, CsvOfUnitsWithoutTimeLeadsWithTheScope) {
  Stream s;
  const std::vector<std::string> lines = lines_of(s.unit_records(Format::Csv, false));
  ASSERT_EQ(lines.size(), 1u + 2 * 6);
  EXPECT_EQ(lines[0].rfind("scope,kind,name,", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1], "CPU0,node,Busy,1,,,0.5,fraction,1,0,1.0000,ok,");
  EXPECT_EQ(lines[7], "CPU1,node,Busy,1,,,0.5,fraction,1,0,1.0000,ok,");
}

TEST(ReportWriter, CsvQuotesFieldsAndShowsAScopesSeparatorsAsUnderscores) {
  Stream s;
  s.run.extra_events = {"cpu/event=0x3c,umask=0x0/"};
  counts::Sample sample = s.sample(2000);
  sample.events["cpu/event=0x3c,umask=0x0/"] = {1234, 10, 10};
  ReportWriter writer(Layout{Format::Csv, TextOptions{}, true, true});
  const std::vector<std::string> lines = lines_of(writer.write(1.5, {s.report(sample, 0.2, "my,\"app\"-42")}));
  ASSERT_EQ(lines.size(), 1u + 7);
  EXPECT_EQ(lines[7], "1.5,my__app_-42,event,\"cpu/event=0x3c,umask=0x0/\",,,,1234,count,0,0,1.0000,ok,");
}

// A hybrid CPU's record: the P-core tree (Busy 0.75) with 3/4 of the
// cycles, the E-core tree (Busy 0.25) with the rest.
std::vector<Report> core_type_reports(const Stream& s) {
  Report p_cores = s.report(s.sample(3000), 0.2);
  p_cores.core_type = "P-core";
  p_cores.core_share = 0.75;
  Report e_cores = s.report(s.sample(1000), 0.2);
  e_cores.core_type = "E-core";
  e_cores.core_share = 0.25;
  return {p_cores, e_cores};
}

TEST(ReportWriter, CoreTypesHaveTheirHeadingsInText) {
  Stream s;
  ReportWriter writer(Layout{Format::Text, TextOptions{}, false, false, true});
  const std::string text = writer.write(std::nullopt, core_type_reports(s));
  const size_t p_heading = text.find("=== P-core: 75.0% of the cycles ===\n");
  const size_t e_heading = text.find("\n=== E-core: 25.0% of the cycles ===\n");
  ASSERT_EQ(p_heading, 0u) << text;
  ASSERT_NE(e_heading, std::string::npos) << text;
  // Each tree under its own heading: the same report as alone.
  const std::string alone =
      render_text(s.evaluate(s.sample(1000)), s.sample(1000), s.report(s.sample(1000), 0.2).run, TextOptions{});
  EXPECT_EQ(text.substr(e_heading + std::string("\n=== E-core: 25.0% of the cycles ===\n").size()), alone);
}

TEST(ReportWriter, CoreTypesOfUnitsNameTheUnitNotTheShare) {
  Stream s;
  ReportWriter writer(Layout{Format::Text, TextOptions{}, false, true, true});
  std::vector<Report> reports = core_type_reports(s);
  reports[0].scope = "CPU0";
  reports[0].core_share.reset();
  reports[1].scope = "CPU8";
  reports[1].core_share.reset();
  const std::string text = writer.write(std::nullopt, reports);
  EXPECT_EQ(text.find("=== P-core CPU0 ===\n"), 0u) << text;
  EXPECT_NE(text.find("\n=== E-core CPU8 ===\n"), std::string::npos) << text;
}

TEST(ReportWriter, CsvAndJsonCarryTheCoreTypeAndShare) {
  Stream s;
  ReportWriter csv(Layout{Format::Csv, TextOptions{}, true, false, true});
  const std::vector<std::string> lines = lines_of(csv.write(0.2, core_type_reports(s)));
  ASSERT_EQ(lines.size(), 1u + 2 * 6);
  EXPECT_EQ(lines[0].rfind("time,core_type,core_share,kind,name,", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1], "0.2,P-core,0.75,node,Busy,1,,,0.75,fraction,1,0,1.0000,ok,");
  EXPECT_EQ(lines[7], "0.2,E-core,0.25,node,Busy,1,,,0.25,fraction,1,0,1.0000,ok,");

  ReportWriter json(Layout{Format::Json, TextOptions{}, false, false, true});
  std::vector<Report> reports = core_type_reports(s);
  reports[1].core_share.reset();
  const std::vector<std::string> objects = lines_of(json.write(std::nullopt, reports));
  ASSERT_EQ(objects.size(), 2u);
  const auto p_cores = nlohmann::json::parse(objects[0]);
  EXPECT_EQ(p_cores["core_type"], "P-core");
  EXPECT_DOUBLE_EQ(p_cores["core_share"].get<double>(), 0.75);
  const auto e_cores = nlohmann::json::parse(objects[1]);
  EXPECT_EQ(e_cores["core_type"], "E-core");
  EXPECT_TRUE(e_cores["core_share"].is_null());
}

TEST(ReportWriter, CoreTypesAreBlocksOfColumnsOnOneLine) {
  Stream s;
  ReportWriter writer(Layout{Format::Columns, TextOptions{}, true, false, true});
  std::vector<Report> unknown_shares = core_type_reports(s);
  for (Report& report : unknown_shares) report.core_share.reset();
  // The P-cores' bottleneck column is as wide as the tree's longest name
  // (Busy_Memory), so that the E-cores' block starts at one place.
  std::string out = writer.write(0.2, core_type_reports(s));
  out += writer.write(std::nullopt, unknown_shares);
  EXPECT_EQ(out,
            "#     time  P-core     Busy     Idle    Hyper   Bottleneck   E-core     Busy     Idle    Hyper   "
            "Bottleneck\n"
            "     0.200   75.0%    75.0%    25.0%     0.0%   Busy_Memory   25.0%    25.0%    75.0%     0.0%   Idle\n"
            "     total       -    75.0%    25.0%     0.0%   Busy_Memory       -    25.0%    75.0%     0.0%   Idle\n");
}

TEST(ReportWriter, ColumnsOfCoreTypesKeepTheHeadersTypes) {
  Stream s;
  ReportWriter writer(Layout{Format::Columns, TextOptions{}, true, false, true});
  writer.write(0.2, core_type_reports(s));
  EXPECT_THROW(writer.write(0.4, {core_type_reports(s).front()}), std::invalid_argument);
  EXPECT_THROW(ReportWriter(Layout{Format::Columns, TextOptions{}, true, true, true}), std::invalid_argument);
}

TEST(CsvLine, QuotesOnlyFieldsThatNeedIt) {
  EXPECT_EQ(csv_line({"plain", "", "1.5"}), "plain,,1.5\n");
  EXPECT_EQ(csv_line({"a,b", "say \"hi\"", "two\nlines", "cr\r"}),
            "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\n");
  EXPECT_EQ(csv_line({}), "\n");
}

TEST(CsvLine, AppendsLeadingFieldsThenTheRowQuotingBoth) {
  std::string out = "header\n";
  append_csv_line(out, {"1.5", "a,b"}, {"node", "Busy"});
  append_csv_line(out, {}, {"x"});
  append_csv_line(out, {"2"}, {});
  EXPECT_EQ(out, "header\n1.5,\"a,b\",node,Busy\nx\n2\n");
}

TEST(ReportWriter, JsonOfUnitsIsOneObjectPerUnitWithScopeAndTime) {
  Stream s;
  const std::vector<std::string> timed = lines_of(s.unit_records(Format::Json, true));
  ASSERT_EQ(timed.size(), 4u);
  const auto first = nlohmann::json::parse(timed[0]);
  EXPECT_EQ(first["scope"], "CPU0");
  EXPECT_DOUBLE_EQ(first["time"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(first["nodes"][0]["value"].get<double>(), 0.75);
  EXPECT_EQ(nlohmann::json::parse(timed[1])["scope"], "CPU1");
  const auto whole = nlohmann::json::parse(timed[3]);
  EXPECT_EQ(whole["scope"], "CPU1");
  EXPECT_TRUE(whole["time"].is_null());
  EXPECT_DOUBLE_EQ(whole["elapsed_s"].get<double>(), 0.4);

  const std::vector<std::string> untimed = lines_of(s.unit_records(Format::Json, false));
  ASSERT_EQ(untimed.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(untimed[0])["scope"], "CPU0");
  EXPECT_FALSE(nlohmann::json::parse(untimed[0]).contains("time"));
}

TEST(ReportWriter, TextOfUnitsHasScopeHeadingsUnderTheTimeHeading) {
  Stream s;
  const std::string text = s.unit_records(Format::Text, true);
  EXPECT_EQ(text.rfind("=== time 0.2 s ===\n=== CPU0 ===\ntopdown: Tiny test model (tiny), ./app, 0.20 s\n", 0), 0u)
      << text;
  EXPECT_NE(text.find("\n\n=== CPU1 ===\ntopdown: Tiny test model (tiny), ./app, 0.20 s\n"), std::string::npos);
  EXPECT_NE(text.find("\n\n=== whole run ===\n=== CPU0 ===\ntopdown: Tiny test model (tiny), ./app, 0.40 s\n"),
            std::string::npos);
  const std::string untimed = s.unit_records(Format::Text, false);
  EXPECT_EQ(untimed.rfind("=== CPU0 ===\ntopdown: ", 0), 0u) << untimed;
  EXPECT_EQ(untimed.find("=== whole run"), std::string::npos);
}

TEST(ReportWriter, ColumnsHaveOneLinePerRecordSoNoUnits) {
  Stream s;
  EXPECT_THROW(ReportWriter(Layout{Format::Columns, TextOptions{}, true, true}), std::invalid_argument);
  ReportWriter text(Layout{Format::Text, TextOptions{}, true, false});
  EXPECT_THROW(text.write(0.2, {s.report(s.sample(1000), 0.2), s.report(s.sample(1000), 0.2)}), std::invalid_argument);
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
  EXPECT_EQ(render_text(s.evaluate(whole), whole, run, TextOptions{})
                .rfind("topdown: Tiny test model (tiny), process 42, 1.25 s\n", 0),
            0u);
}

TEST(SignalName, SpellsTheSignal) {
  EXPECT_EQ(signal_name(2), "SIGINT");
  EXPECT_EQ(signal_name(15), "SIGTERM");
  EXPECT_EQ(signal_name(9), "SIGKILL");
}

}  // namespace
}  // namespace topdown::report
