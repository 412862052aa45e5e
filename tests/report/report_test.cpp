#include <gtest/gtest.h>

#include <array>
#include <charconv>

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/report.h"
#include "support/tiny_model.h"

namespace topdown::report {
namespace {

struct Fixture {
  model::Model model = testing::tiny_model();
  counts::Sample sample;
  eval::Evaluation evaluation;
  RunInfo run;

  Fixture() {
    sample.events["cycles"] = {1000, 10, 10};
    sample.events["busy_slots"] = {3000, 10, 10};
    sample.events["idle_slots"] = {1000, 10, 10};
    sample.events["mem_stalls"] = {300, 10, 5};
    sample.events["all_stalls"] = {400, 10, 5};
    sample.events["instructions"] = {2500, 10, 10};
    evaluation = eval::evaluate(model, {"Busy", "Busy_Memory", "Busy_Core", "Idle", "Hyper", "IPC"}, sample, {});
    run.model_name = "tiny";
    run.model_title = "Tiny test model";
    run.command = {"./app", "--fast"};
    run.elapsed_s = 1.5;
    run.exit_code = 0;
    run.groups = 2;
    run.multiplexed = true;
    run.extra_events = {"instructions"};
  }
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Json, ListsEveryNodeWithValuesAsFractions) {
  Fixture f;
  auto j = nlohmann::json::parse(render_json(f.evaluation, f.sample, f.run));
  EXPECT_EQ(j["format"], "topdown-1");
  EXPECT_EQ(j["model"]["name"], "tiny");
  ASSERT_EQ(j["nodes"].size(), 5u);
  ASSERT_EQ(j["info"].size(), 1u);
  const auto& busy = j["nodes"][0];
  EXPECT_EQ(busy["name"], "Busy");
  EXPECT_EQ(busy["level"], 1);
  EXPECT_TRUE(busy["parent"].is_null());
  EXPECT_DOUBLE_EQ(busy["value"].get<double>(), 0.75);
  EXPECT_EQ(busy["over_threshold"], true);
  EXPECT_EQ(busy["bottleneck"], false);
  const auto& memory = j["nodes"][1];
  EXPECT_EQ(memory["parent"], "Busy");
  EXPECT_EQ(memory["bottleneck"], true);
  EXPECT_EQ(memory["status"], "multiplexed");
  EXPECT_DOUBLE_EQ(memory["counted_share"].get<double>(), 0.5);
  EXPECT_EQ(j["bottleneck"], "Busy_Memory");
  EXPECT_DOUBLE_EQ(j["multiplex_ratio"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["info"][0]["value"].get<double>(), 2.5);
  EXPECT_EQ(j["info"][0]["unit"], "instructions/cycle");
  EXPECT_EQ(j["events"].size(), 6u);
}

TEST(Json, NaIsNullNeverANumber) {
  Fixture f;
  f.sample.events["cycles"] = {0, 10, 10};
  f.evaluation = eval::evaluate(f.model, {"Busy", "IPC"}, f.sample, {});
  auto j = nlohmann::json::parse(render_json(f.evaluation, f.sample, f.run));
  EXPECT_TRUE(j["nodes"][0]["value"].is_null());
  EXPECT_EQ(j["nodes"][0]["status"], "n/a");
  EXPECT_TRUE(j["info"][0]["value"].is_null());
  EXPECT_EQ(j["warnings"].size(), 1u);
}

// Found by fuzz/import_fuzz.cpp: an imported event name with a byte that is
// not UTF-8 made nlohmann::json throw while dumping.
// An imported file that does not say how long it counted: its duration is
// unknown, never 0 s.
TEST(Json, AnUnknownDurationIsNullAndTextSaysNa) {
  Fixture f;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(render_json(f.evaluation, f.sample, f.run))["elapsed_s"].get<double>(), 1.5);
  EXPECT_EQ(lines_of(render_text(f.evaluation, f.sample, f.run, {}))[0],
            "topdown: Tiny test model (tiny), ./app --fast, 1.50 s");
  f.run.elapsed_s = 0;
  EXPECT_TRUE(nlohmann::json::parse(render_json(f.evaluation, f.sample, f.run))["elapsed_s"].is_null());
  EXPECT_EQ(lines_of(render_text(f.evaluation, f.sample, f.run, {}))[0],
            "topdown: Tiny test model (tiny), ./app --fast, duration n/a");
}

TEST(Json, NamesThatAreNotUtf8AreReplacedNotThrown) {
  Fixture f;
  f.run.extra_events = {"cpu/event\x01\x80/"};
  f.run.command = {"./app", "\xff"};
  const std::string text = render_json(f.evaluation, f.sample, f.run);
  auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["extra_events"][0], "cpu/event\x01\xEF\xBF\xBD/");
  EXPECT_EQ(j["command"][1], "\xEF\xBF\xBD");
}

TEST(Csv, HasAStableHeaderAndOneRowPerNodeAndEvent) {
  Fixture f;
  auto lines = lines_of(render_csv(f.evaluation, f.sample, f.run));
  ASSERT_EQ(lines.size(), 1u + 6u + 1u);
  EXPECT_EQ(
      lines[0],
      "kind,name,level,parent,vendor_name,value,unit,over_threshold,bottleneck,counted_share,status,missing_events");
  EXPECT_EQ(lines[1], "node,Busy,1,,,0.75,fraction,1,0,1.0000,ok,");
  EXPECT_EQ(lines[2], "node,Busy_Memory,2,Busy,,0.5625,fraction,1,1,0.5000,multiplexed,");
  EXPECT_EQ(lines[6], "info,IPC,0,,,2.5,instructions/cycle,0,0,1.0000,ok,");
  EXPECT_EQ(lines[7], "event,instructions,,,,2500,count,0,0,1.0000,ok,");
}

// Shares are written with 4 decimals as std::to_chars writes them (exact
// decimal, correctly rounded), whichever way the writer takes.
TEST(Csv, SharesAreTheCorrectlyRoundedDecimals) {
  Fixture f;
  for (const double share :
       {1.0, 0.5, 0.25, 0.0, -0.0, 0.1, 1.0 / 3, 0.99995, 0.00005, 0.12345, 0.9999499999999999, 123456.75, 1e-300}) {
    SCOPED_TRACE(share);
    f.evaluation.nodes[0].counted_share = share;
    const auto lines = lines_of(render_csv(f.evaluation, f.sample, f.run));
    std::array<char, 400> expected{};
    const auto end =
        std::to_chars(expected.data(), expected.data() + expected.size(), share, std::chars_format::fixed, 4);
    const std::string want = "," + std::string(expected.data(), end.ptr) + ",";
    EXPECT_NE(lines[1].find(want), std::string::npos) << lines[1];
  }
}

TEST(Text, AlignsValuesAndMarksTheBottleneck) {
  Fixture f;
  std::string text = render_text(f.evaluation, f.sample, f.run, {});
  auto lines = lines_of(text);
  EXPECT_EQ(lines[0], "topdown: Tiny test model (tiny), ./app --fast, 1.50 s");
  size_t busy = 0, memory = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("  Busy ", 0) == 0) busy = i;
    if (lines[i].find("Busy_Memory") != std::string::npos && memory == 0) memory = i;
  }
  ASSERT_NE(busy, 0u);
  ASSERT_NE(memory, 0u);
  // The percent column lines up whatever the depth.
  EXPECT_EQ(lines[busy].find("75.0%") + 5, lines[memory].find("56.2%") + 5);
  EXPECT_NE(lines[memory].find("<== bottleneck"), std::string::npos);
  EXPECT_NE(lines[memory].find("56.2%~"), std::string::npos);  // multiplexed estimate mark
  EXPECT_NE(text.find("~ estimate"), std::string::npos);
  EXPECT_NE(text.find("Bottleneck: Busy_Memory (56.2%)"), std::string::npos);
  EXPECT_NE(text.find("2,500"), std::string::npos);
  EXPECT_EQ(text.find("\033["), std::string::npos);  // no colour unless asked
}

// An Info value wider than the column (IPC of 2,500,000,000 instructions per
// cycle here) widens it for every row, so the values still end in one column.
TEST(Text, LongInfoValuesWidenTheValueColumn) {
  Fixture f;
  f.sample.events["instructions"] = {2.5e12, 10, 10};
  f.evaluation = eval::evaluate(f.model, {"Busy", "Idle", "IPC"}, f.sample, {});
  const auto lines = lines_of(render_text(f.evaluation, f.sample, f.run, {}));
  size_t busy = 0, ipc = 0, info_header = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("  Busy ", 0) == 0) busy = i;
    if (lines[i].rfind("  IPC ", 0) == 0) ipc = i;
    if (lines[i].rfind("  Info metric", 0) == 0) info_header = i;
  }
  ASSERT_NE(busy, 0u);
  ASSERT_NE(ipc, 0u);
  ASSERT_NE(info_header, 0u);
  const size_t end = lines[ipc].find("2,500,000,000") + 13;
  EXPECT_EQ(lines[busy].find("75.0%") + 5, end);
  EXPECT_EQ(lines[info_header].find("Value") + 5, end);
}

// Text shows Info values from 10,000 on whole, with thousands separators;
// CSV (nine significant digits) and JSON (every digit) are plain numbers.
TEST(Text, LargeInfoValuesHaveThousandsSeparatorsAndNoDecimals) {
  auto ipc_text = [](double instructions) {
    Fixture f;
    f.sample.events["instructions"] = {instructions, 10, 10};
    f.evaluation = eval::evaluate(f.model, {"Busy", "Idle", "IPC"}, f.sample, {});
    for (const auto& line : lines_of(render_text(f.evaluation, f.sample, f.run, {}))) {
      if (line.rfind("  IPC ", 0) == 0) return line;
    }
    return std::string("no IPC line");
  };
  // 1000 cycles.
  EXPECT_NE(ipc_text(760852448250).find("  760,852,448   instructions/cycle"), std::string::npos)
      << ipc_text(760852448250);
  EXPECT_NE(ipc_text(1e7).find("  10,000   instructions/cycle"), std::string::npos) << ipc_text(1e7);
  EXPECT_NE(ipc_text(9999500).find("  9999.50   instructions/cycle"), std::string::npos) << ipc_text(9999500);
  EXPECT_NE(ipc_text(2500).find("  2.50   instructions/cycle"), std::string::npos) << ipc_text(2500);

  Fixture f;
  f.sample.events["instructions"] = {760852448250, 10, 10};
  f.evaluation = eval::evaluate(f.model, {"Busy", "Idle", "IPC"}, f.sample, {});
  EXPECT_NE(render_csv(f.evaluation, f.sample, f.run).find("info,IPC,0,,,760852448.25,"), std::string::npos)
      << render_csv(f.evaluation, f.sample, f.run);
  auto j = nlohmann::json::parse(render_json(f.evaluation, f.sample, f.run));
  EXPECT_DOUBLE_EQ(j["info"][0]["value"].get<double>(), 760852448.25);
}

// Names from an imported file reach the text report as they were read: their
// control bytes are escaped, not sent to the terminal.
TEST(Text, ControlBytesOfNamesAndWarningsAreEscaped) {
  Fixture f;
  const std::string name = "\x1b[31mEVIL\x07";
  f.sample.events[name] = {7, 10, 10};
  f.run.extra_events = {name, "instructions"};
  f.run.source = "bad\x1b]0;title\x07.csv";
  f.run.command.clear();
  f.evaluation.warnings.push_back("counts.csv lacks " + name);
  const std::string text = render_text(f.evaluation, f.sample, f.run, {});
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
  EXPECT_NE(text.find("topdown: Tiny test model (tiny), bad\\x1b]0;title\\x07.csv, 1.50 s\n"), std::string::npos)
      << text;
  // The escaped name sets the column's width.
  EXPECT_NE(text.find("  \\x1b[31mEVIL\\x07" + std::string(19, ' ') + "7\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  instructions" + std::string(19, ' ') + "2,500\n"), std::string::npos) << text;
  EXPECT_NE(text.find("warning: counts.csv lacks \\x1b[31mEVIL\\x07\n"), std::string::npos) << text;
}

TEST(Text, HidesNodesUnderThresholdUnlessVerbose) {
  Fixture f;
  std::string quiet = render_text(f.evaluation, f.sample, f.run, {});
  EXPECT_NE(quiet.find("Hyper"), std::string::npos);  // level 1 is always shown
  f.sample.events["mem_stalls"] = {20, 10, 10};       // Busy_Memory under threshold
  f.evaluation = eval::evaluate(f.model, {"Busy", "Busy_Memory", "Busy_Core", "Idle"}, f.sample, {});
  quiet = render_text(f.evaluation, f.sample, f.run, {});
  EXPECT_EQ(quiet.find("Busy_Memory"), std::string::npos);
  EXPECT_NE(quiet.find("1 node(s) under their threshold are hidden"), std::string::npos);
  std::string verbose = render_text(f.evaluation, f.sample, f.run, {true, false});
  EXPECT_NE(verbose.find("Busy_Memory"), std::string::npos);
}

TEST(Text, ShowsNaWithTheMissingEvents) {
  Fixture f;
  f.sample.events.erase("mem_stalls");
  f.evaluation = eval::evaluate(f.model, {"Busy", "Busy_Memory"}, f.sample, {});
  std::string text = render_text(f.evaluation, f.sample, f.run, {true, false});
  EXPECT_NE(text.find("n/a"), std::string::npos);
  EXPECT_NE(text.find("not counted: mem_stalls"), std::string::npos);
  EXPECT_EQ(text.find("nan"), std::string::npos);
}

}  // namespace
}  // namespace topdown::report
