#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "html/draw.h"
#include "html/escape.h"
#include "html/html.h"
#include "support/tiny_model.h"

namespace topdown::html {
namespace {

struct TinyRun {
  model::Model model = testing::tiny_model();
  const std::vector<std::string> nodes = {"Busy", "Busy_Memory", "Busy_Core", "Idle", "IPC"};

  // Busy = busy / (4 * 1000 cycles), Idle the rest.
  report::Report report(double busy_slots, const std::string& scope = "", const std::string& command = "./app") const {
    counts::Sample s;
    s.events["cycles"] = {1000, 10, 10};
    s.events["busy_slots"] = {busy_slots, 10, 10};
    s.events["idle_slots"] = {4000 - busy_slots, 10, 10};
    s.events["mem_stalls"] = {300, 10, 10};
    s.events["all_stalls"] = {400, 10, 10};
    s.events["instructions"] = {2500, 10, 10};
    s.duration_s = 0.2;
    report::RunInfo run;
    run.model_name = model.name;
    run.model_title = model.title;
    run.command = {command};
    run.elapsed_s = 0.4;
    return {scope, eval::evaluate(model, nodes, s, {}), s, run};
  }
};

std::string box_of(const std::string& page, const std::string& node) {
  const auto at = page.find("data-node=\"" + node + "\"");
  if (at == std::string::npos) return "";
  const auto start = page.rfind("<g ", at);
  return page.substr(start, page.find("</g>", at) - start);
}

nlohmann::json page_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"td-data\">";
  const auto start = page.find(open) + open.size();
  return nlohmann::json::parse(page.substr(start, page.find("</script>", start) - start));
}

TEST(HtmlWriter, TheDurationIsShownWhenKnownAndNaWhenNot) {
  TinyRun run;
  HtmlWriter known(run.model, {"the command"});
  known.add(std::nullopt, {run.report(3000)});
  EXPECT_NE(known.page({}).find("<dt>duration</dt><dd>0.400 s</dd>"), std::string::npos);
  report::Report unknown_duration = run.report(3000);
  unknown_duration.run.elapsed_s = 0;
  HtmlWriter unknown(run.model, {"the command"});
  unknown.add(std::nullopt, {unknown_duration});
  EXPECT_NE(unknown.page({}).find("<dt>duration</dt><dd>n/a</dd>"), std::string::npos);
}

TEST(HtmlWriter, EveryTreeNodeHasABoxWithItsValueAndTheBottleneckPathIsOutlined) {
  TinyRun run;
  HtmlWriter writer(run.model, {"the command"});
  writer.add(std::nullopt, {run.report(3000)});  // Busy 75%, Busy_Memory 56.25%, Busy_Core 18.75%
  const std::string page = writer.page({});
  EXPECT_NE(box_of(page, "Busy").find(R"(data-value="75.0%")"), std::string::npos);
  EXPECT_NE(box_of(page, "Busy_Memory").find(R"(data-value="56.2%")"), std::string::npos)
      << box_of(page, "Busy_Memory");
  EXPECT_NE(box_of(page, "Idle").find(R"(data-value="25.0%")"), std::string::npos);
  // Busy -> Busy_Memory is the path; Busy_Memory the bottleneck.
  EXPECT_NE(box_of(page, "Busy").find(R"(stroke="#000" stroke-width="2")"), std::string::npos);
  EXPECT_NE(box_of(page, "Busy_Memory").find(R"(stroke="#000" stroke-width="3")"), std::string::npos);
  EXPECT_EQ(box_of(page, "Idle").find(R"(stroke="#000")"), std::string::npos);
  // Sized by share of slots: Busy 750 of 1000 wide, its children inside it.
  EXPECT_NE(box_of(page, "Busy").find(R"(width="750.0")"), std::string::npos);
  EXPECT_NE(box_of(page, "Busy_Core").find(R"(x="562.5")"), std::string::npos);
  // The tooltip's threshold and events; the Info metric in the table.
  EXPECT_NE(box_of(page, "Busy").find("threshold: this &gt; 0.2  (over)"), std::string::npos);
  EXPECT_NE(box_of(page, "Busy").find("events: busy_slots cycles"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"value\">2.50 instructions/cycle</td>"), std::string::npos);
  EXPECT_EQ(page.find("id=\"time\""), std::string::npos);  // no intervals, no timeline
}

TEST(HtmlWriter, UnderThresholdNodesAreFaded) {
  TinyRun run;
  HtmlWriter writer(run.model, {});
  writer.add(std::nullopt, {run.report(3500)});  // Idle 12.5%: under its 20%
  const std::string page = writer.page({});
  EXPECT_NE(box_of(page, "Idle").find(R"(opacity="0.35")"), std::string::npos);
  EXPECT_EQ(box_of(page, "Busy").find("opacity"), std::string::npos);
}

TEST(HtmlWriter, IntervalsKeepEveryValueInTheDataAndDrawTheTimeline) {
  TinyRun run;
  HtmlWriter writer(run.model, {});
  for (int i = 0; i < 1500; ++i) writer.add(0.1 * (i + 1), {run.report(i % 2 ? 3000 : 1000)});
  writer.add(std::nullopt, {run.report(2000)});
  const std::string page = writer.page({});
  const nlohmann::json data = page_data(page);
  ASSERT_EQ(data["times"].size(), 1500U);
  ASSERT_EQ(data["nodes"][0]["name"], "Busy");
  EXPECT_EQ(data["series"][0]["values"][0][0], 2500);  // 25.00%
  EXPECT_EQ(data["series"][0]["values"][0][1], 7500);
  EXPECT_EQ(data["series"][0]["bottleneck"][0], 3);  // Idle
  EXPECT_EQ(data["series"][0]["bottleneck"][1], 1);  // Busy_Memory
  // Drawn in 600 columns: each the mean of 2.5 intervals.
  const auto polygon = page.find(R"(<polygon class="level1" data-node="Busy")");
  ASSERT_NE(polygon, std::string::npos);
  const auto points = page.find("points=\"", polygon) + 8;
  const std::string drawn = page.substr(points, page.find('"', points) - points);
  EXPECT_EQ(std::count(drawn.begin(), drawn.end(), ' '), 2 * 602 - 1);
  // The whole run's bottleneck (Busy_Memory 37.5%) is the node whose line is drawn.
  EXPECT_NE(page.find(R"(<option value="1" selected>..Busy_Memory</option>)"), std::string::npos);
  EXPECT_NE(page.find(R"(<text class="chosen-name" x="48" y="234">Busy_Memory</text>)"), std::string::npos);
  // Over time sits above the tree and its Info table.
  EXPECT_LT(page.find(R"(<section id="time">)"), page.find(R"(<table class="info">)"));
}

TEST(HtmlWriter, UnitsGetSortedSmallMultiplesAndATreeEach) {
  TinyRun run;
  HtmlWriter writer(run.model, {});
  writer.add(std::nullopt, {run.report(1000, "CPU0"), run.report(3000, "CPU1"), run.report(2000, "CPU2")});
  const std::string page = writer.page({});
  const auto chart = page.substr(page.find(R"(<svg class="unit-chart" data-node="Busy")"));
  const auto cpu1 = chart.find(R"(data-scope="CPU1")");
  const auto cpu2 = chart.find(R"(data-scope="CPU2")");
  const auto cpu0 = chart.find(R"(data-scope="CPU0")");
  EXPECT_LT(cpu1, cpu2);
  EXPECT_LT(cpu2, cpu0);
  EXPECT_NE(page.find(R"(<div class="unit-tree" data-index="2" data-scope="CPU2" hidden>)"), std::string::npos);
}

// A sampled report of a function with `share` of the clockticks.
report::Report function_report(const TinyRun& run, double busy_slots, const std::string& name, double share) {
  report::Report report = run.report(busy_slots, name + " [/bin/app]");
  report::Sampled sampled;
  sampled.function = name;
  sampled.module = "/bin/app";
  sampled.share = share;
  sampled.samples = static_cast<uint64_t>(share * 1000);
  report.run.sampled = sampled;
  return report;
}

TEST(HtmlWriter, FunctionsAreATableOfWholeNamesCutInTheMiddleWithEachNodesSlots) {
  TinyRun run;
  HtmlWriter writer(run.model, {});
  const std::string long_name = "ns::Kernel<std::vector<int> >::compute_everything_there_is(unsigned long, int)";
  writer.add(std::nullopt, {function_report(run, 2000, "[whole program]", 1.0),
                            function_report(run, 3000, long_name, 0.6), function_report(run, 1000, "small", 0.4)});
  const std::string page = writer.page({});
  EXPECT_EQ(page.find(R"(<section id="units">)"), std::string::npos) << "the table replaces the per-unit bars";
  const auto row = page.find(R"(<tr class="function" data-index="1")");
  ASSERT_NE(row, std::string::npos);
  const std::string cells = page.substr(row, page.find("</tr>", row) - row);
  // Slots per node in tree order (Busy, Busy_Memory, Busy_Core, Idle):
  // value x share, Busy 75% of 0.6.
  EXPECT_NE(cells.find(R"(data-slots="0.45 0.3375 0.1125 0.15")"), std::string::npos) << cells;
  EXPECT_NE(cells.find("title=\"" + escape(long_name) + "\">" + escape(elide_middle(long_name, 48)) + "</td>"),
            std::string::npos)
      << cells;
  EXPECT_NE(cells.find(R"(<td class="bottleneck">Busy_Memory 56.2%</td>)"), std::string::npos) << cells;
  EXPECT_NE(cells.find(R"(<rect data-node="Busy" x="0.0" width="75.0")"), std::string::npos) << "level 1 of 100px";
  EXPECT_NE(page.find(R"(<div class="unit-tree" data-index="1")"), std::string::npos) << "the row's tree";
}

TEST(HtmlWriter, LongTextIsCutAThirdInOnCharacters) {
  EXPECT_EQ(elide_middle("short", 5), "short");
  EXPECT_EQ(elide_middle("abcdefghij", 5), "a\u2026hij");
  EXPECT_EQ(elide_middle("abcdefghij", 8), "ab\u2026fghij");
  EXPECT_EQ(elide_middle("\u03b1\u03b2\u03b3\u03b4\u03b5\u03b6", 4), "\u03b1\u2026\u03b5\u03b6");
}

// A frame of `busy_slots` of 4000 slots over `clock` clockticks.
profile::FlameFrame frame(const TinyRun& run, const std::string& name, double busy_slots, double clock, uint32_t parent,
                          uint32_t depth) {
  profile::FlameFrame out;
  out.result.function.name = name;
  out.result.function.clock = clock;
  out.result.function.share = clock / 1000;
  out.result.evaluation = run.report(busy_slots).evaluation;
  out.parent = parent;
  out.depth = depth;
  return out;
}

TEST(HtmlWriter, TheFlameGraphDrawsEachFrameAsWideAsItsClockticksColouredByItsLargestLevel1Node) {
  TinyRun run;
  HtmlWriter writer(run.model, {});
  writer.add(std::nullopt, {function_report(run, 2000, "[whole program]", 1.0)});
  profile::FlameGraph flame;
  flame.call_stacks = true;
  flame.merged = 3;
  flame.frames = {frame(run, "[whole program]", 2000, 1000, profile::kNoFrame, 0), frame(run, "main", 2000, 1000, 0, 1),
                  frame(run, "busy_loop", 3200, 750, 1, 2), frame(run, "waiting", 400, 250, 1, 2)};
  flame.frames[0].children = {1};
  flame.frames[1].children = {2, 3};
  writer.set_flame_graph(flame);
  const std::string page = writer.page({});
  size_t frames = 0;
  for (auto at = page.find(R"(<g class="frame )"); at != std::string::npos;
       at = page.find(R"(<g class="frame )", at + 1)) {
    ++frames;
  }
  EXPECT_EQ(frames, 4U);
  const auto waiting = page.find(R"(data-name="waiting")");
  ASSERT_NE(waiting, std::string::npos);
  const std::string drawn = page.substr(page.rfind("<g ", waiting), 600);
  // Idle 90% of waiting's slots, Busy 80% of busy_loop's; 1200 wide in all, the root at the bottom.
  EXPECT_NE(drawn.find(R"(class="frame dominant-Idle")"), std::string::npos) << drawn;
  EXPECT_NE(drawn.find(R"(x="900.0" y="0.0" width="300.0")"), std::string::npos) << drawn;
  EXPECT_NE(drawn.find(R"(fill-opacity="0.93")"), std::string::npos) << "0.3 + 0.7 x 90%";
  EXPECT_NE(page.find(R"(class="frame dominant-Busy" data-frame="2" data-name="busy_loop")"), std::string::npos);
  EXPECT_NE(page.find("3 frames under 0.1% of the clockticks are merged into [other]"), std::string::npos);
  const nlohmann::json data = page_data(page);
  EXPECT_DOUBLE_EQ(data["flame"]["frames"][3]["x"].get<double>(), 0.75);
  EXPECT_EQ(data["flame"]["frames"][3]["values"][3], 9000) << "Idle 90.00%";
}

// Every id="..." of `page`, in order.
std::vector<std::string> ids_of(const std::string& page) {
  std::vector<std::string> ids;
  for (size_t at = page.find(" id=\""); at != std::string::npos; at = page.find(" id=\"", at + 1)) {
    const size_t start = at + 5;
    ids.push_back(page.substr(start, page.find('"', start) - start));
  }
  return ids;
}

TEST(CoreTypePage, ASectionPerCoreTypeInOrderEachWithItsShareTreeAndIds) {
  TinyRun run;
  report::Report p_cores = run.report(3000);  // Busy 75%
  p_cores.core_type = "P-core";
  p_cores.core_share = 0.625;
  report::Report e_cores = run.report(1000);  // Busy 25%
  e_cores.core_type = "E-core";
  e_cores.core_share = 0.375;
  HtmlWriter p_writer(run.model, {"the command"});
  HtmlWriter e_writer(run.model, {"the command"});
  HtmlWriter not_run(run.model, {"the command"});
  p_writer.add(std::nullopt, {p_cores});
  e_writer.add(std::nullopt, {e_cores});
  const model::RunVariables vars;
  const std::string page = core_type_page({{&p_writer, &vars}, {&not_run, &vars}, {&e_writer, &vars}});

  // The title once, then each type's section under its heading, P-cores first.
  const size_t title = page.find("<h1>topdown: ./app</h1>");
  const size_t p_section = page.find(R"(<section class="td-view core-type" data-prefix="type0-">)");
  const size_t e_section = page.find(R"(<section class="td-view core-type" data-prefix="type2-">)");
  ASSERT_NE(title, std::string::npos);
  ASSERT_NE(p_section, std::string::npos);
  ASSERT_NE(e_section, std::string::npos);
  EXPECT_LT(title, p_section);
  EXPECT_LT(p_section, e_section);
  EXPECT_EQ(page.find("<h1>", title + 1), std::string::npos);
  EXPECT_EQ(page.find("data-prefix=\"type1-\""), std::string::npos) << "a type without records is left out";
  EXPECT_NE(page.find(R"(<h2 class="core-type">P-core: 62.5% of the cycles</h2>)", p_section), std::string::npos);
  EXPECT_NE(page.find(R"(<h2 class="core-type">E-core: 37.5% of the cycles</h2>)", e_section), std::string::npos);
  // Each section's tree is its own type's.
  const std::string p_part = page.substr(p_section, e_section - p_section);
  const std::string e_part = page.substr(e_section);
  EXPECT_NE(box_of(p_part, "Busy").find(R"(data-value="75.0%")"), std::string::npos);
  EXPECT_NE(box_of(e_part, "Busy").find(R"(data-value="25.0%")"), std::string::npos);
  // No id twice: each section's start with its prefix; the page's one script once.
  const std::vector<std::string> ids = ids_of(page);
  std::set<std::string> unique(ids.begin(), ids.end());
  EXPECT_EQ(unique.size(), ids.size());
  EXPECT_TRUE(unique.count("type0-td-data"));
  EXPECT_TRUE(unique.count("type2-td-data"));
  EXPECT_TRUE(unique.count("type0-tree"));
  EXPECT_EQ(page.find("<script>"), page.rfind("<script>"));
}

TEST(CoreTypePage, NoRecordOfAnyTypeIsAnError) {
  TinyRun run;
  HtmlWriter empty(run.model, {"the command"});
  const model::RunVariables vars;
  EXPECT_THROW(core_type_page({{&empty, &vars}}), Error);
}

TEST(HtmlWriter, HostileNamesAreText) {
  TinyRun run;
  HtmlWriter writer(run.model, {"<b>counting</b>"});
  const std::string hostile = "<img src=x onerror=alert(1)>&\"'\xff";
  writer.add(1.0, {run.report(3000, hostile, hostile)});
  writer.add(std::nullopt, {run.report(3000, hostile, hostile)});
  const std::string page = writer.page({});
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_EQ(page.find('\xff'), std::string::npos);
  EXPECT_NE(page.find("&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;\xEF\xBF\xBD"), std::string::npos);
}

}  // namespace
}  // namespace topdown::html
