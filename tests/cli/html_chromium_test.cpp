// topdown import --html rendered in headless Chromium: no console errors,
// every computed node's box with its value, the bottleneck's path outlined,
// hostile names shown as text. Skipped where Chromium is absent. With
// TOPDOWN_HTML_KEEP=DIR the pages are also copied there (for
// scripts/html-screenshots.sh).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "../support/temp_tree.h"
#include "model/dependencies.h"
#include "model/model.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kChromium = "/usr/bin/chromium";

#define SKIP_WITHOUT_CHROMIUM()            \
  if (!std::filesystem::exists(kChromium)) \
  GTEST_SKIP() << kChromium << " is not installed (apt-get install chromium, as scripts/setup-debian.sh does)"

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Every event the model's tree to `level` and its Info metrics need.
std::vector<std::string> model_events(const std::string& name, int level, bool smt) {
  const model::Model model =
      model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / (name + ".model"));
  model::RunVariables vars;
  vars.smt_enabled = smt;
  const model::Dependencies dependencies(model, vars);
  std::set<std::string> events;
  for (const auto& node : model.nodes) {
    if (node.level > level) continue;
    const auto& needed = dependencies.events_of(node.name);
    events.insert(needed.begin(), needed.end());
  }
  return {events.begin(), events.end()};
}

// A count that differs between events, intervals and places, so that the
// tree has nodes over and under their thresholds.
unsigned long long count_of(const std::string& event, int interval, int place) {
  const double base = 1e6 * static_cast<double>(1 + std::hash<std::string>{}(event) % 97);
  return static_cast<unsigned long long>(base *
                                         (1.2 + std::sin(interval / 7.0 + place + static_cast<double>(event.size()))));
}

// perf stat -x, output: with `intervals` > 0 as -I rows, with `cpus` > 0 as -A rows.
std::string perf_file(const std::vector<std::string>& events, int intervals, int cpus) {
  std::string out = "# started on Mon Jan  6 10:00:00 2025\n\n";
  for (int i = 0; i < std::max(intervals, 1); ++i) {
    for (const auto& event : events) {
      for (int cpu = 0; cpu < std::max(cpus, 1); ++cpu) {
        if (intervals > 0) out += fmt::format("{:.6f},", 0.1 * (i + 1));
        if (cpus > 0) out += fmt::format("CPU{},", cpu);
        out += fmt::format("{},,{},100000000,100.00,,\n", count_of(event, i, cpu), event);
      }
    }
  }
  return out;
}

struct Rendered {
  std::string dom;
  std::vector<std::string> console;  // Chromium's console lines: errors, CSP violations
};

Rendered render(const std::filesystem::path& page) {
  const CommandResult chromium =
      run_command(kChromium +
                  " --headless --no-sandbox --disable-gpu --dump-dom --virtual-time-budget=2000 "
                  "--enable-logging=stderr --v=0 " +
                  quoted("file://" + page.string()));
  Rendered rendered{chromium.out, {}};
  std::istringstream err(chromium.err);
  for (std::string line; std::getline(err, line);) {
    if (line.find(":CONSOLE") != std::string::npos) rendered.console.push_back(line);
  }
  return rendered;
}

std::string node_box(const std::string& dom, const std::string& name, size_t from = 0) {
  const auto at = dom.find("data-node=\"" + name + "\" data-value=", from);
  if (at == std::string::npos) return "";
  const auto start = dom.rfind("<g ", at);
  return dom.substr(start, dom.find("</g>", at) - start);
}

// The text report's value of a tree node: one decimal, clamped to 0-100%.
std::string value_text(const nlohmann::json& node) {
  if (node["value"].is_null()) return "n/a";
  return fmt::format("{:.1f}%", std::clamp(node["value"].get<double>(), 0.0, 1.0) * 100);
}

// Imports `file` with `options` as JSON and as HTML, renders the page and
// checks every tree node of the (first) report: its box, its value, and the
// outline of the bottleneck's path.
void check_page(const TempTree& tree, const std::string& file, const std::string& options, const std::string& keep_as) {
  const std::string page = (tree.root() / "page.html").string();
  const std::string json_file = (tree.root() / "report.json").string();
  // The page's tree is the whole file's: per interval too.
  std::string whole = options;
  if (const auto at = whole.find("--per-interval"); at != std::string::npos) whole.erase(at, 14);
  const CommandResult json = run_command(kTopdown + " import " + whole + " --json -o " + json_file + " " + file);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const std::string json_text = slurp(json_file);
  const CommandResult html = run_command(kTopdown + " import " + options + " --html " + page + " " + file);
  ASSERT_EQ(html.exit_code, 0) << html.err;
  if (const char* keep = std::getenv("TOPDOWN_HTML_KEEP")) {
    std::filesystem::copy_file(page, std::filesystem::path(keep) / keep_as,
                               std::filesystem::copy_options::overwrite_existing);
  }
  const Rendered rendered = render(page);
  EXPECT_TRUE(rendered.console.empty()) << rendered.console.front();
  ASSERT_NE(rendered.dom.find("</html>"), std::string::npos) << "Chromium gave no DOM";

  // The first report (JSON lines: the first unit's with --per-*).
  std::vector<nlohmann::json> records;
  std::istringstream lines(json_text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("{") && line.ends_with("}")) records.push_back(nlohmann::json::parse(line));
  }
  const nlohmann::json report = records.empty() ? nlohmann::json::parse(json_text) : records.front();
  std::map<std::string, std::string> parent;
  for (const auto& node : report["nodes"]) parent[node["name"]] = node["parent"].is_null() ? "" : node["parent"];
  std::set<std::string> path;
  if (!report["bottleneck"].is_null()) {
    for (std::string at = report["bottleneck"]; !at.empty(); at = parent[at]) path.insert(at);
  }
  ASSERT_FALSE(path.empty()) << "the generated counts have no bottleneck";
  size_t boxes = 0;
  const size_t tree_start = rendered.dom.find("class=\"unit-tree\"");
  for (const auto& node : report["nodes"]) {
    const std::string name = node["name"];
    const std::string box = node_box(rendered.dom, name, tree_start == std::string::npos ? 0 : tree_start);
    ASSERT_FALSE(box.empty()) << name << " has no box";
    EXPECT_NE(box.find("data-value=\"" + value_text(node)), std::string::npos) << name << ": " << box.substr(0, 200);
    EXPECT_EQ(box.find("stroke=\"#000\"") != std::string::npos, path.count(name) > 0) << name << " outline";
    ++boxes;
  }
  EXPECT_GE(boxes, 4U);
}

TEST(HtmlChromium, AConsoleErrorIsSeen) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const auto page = tree.write("bad.html", "<html><body><script>throw new Error('seen')</script></body></html>");
  const Rendered rendered = render(page);
  ASSERT_EQ(rendered.console.size(), 1U);
  EXPECT_NE(rendered.console.front().find("Uncaught Error: seen"), std::string::npos);
}

TEST(HtmlChromium, HaswellLevel6Import) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const auto file = tree.write("hsw.csv", perf_file(model_events("hsw", 6, true), 0, 0));
  check_page(tree, file.string(), "--cpu hsw --smt on -l6 --info", "hsw-l6.html");
}

TEST(HtmlChromium, ZenLevel2ImportWithIntervals) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const auto file = tree.write("zen5.csv", perf_file(model_events("zen5", 2, false), 300, 0));
  check_page(tree, file.string(), "--cpu zen5 --smt off -l2 --per-interval", "zen5-l2-intervals.html");
  const Rendered rendered = render(tree.root() / "page.html");
  EXPECT_NE(rendered.dom.find("<svg class=\"timeline\""), std::string::npos);
  EXPECT_NE(rendered.dom.find("class=\"bottleneck-band\""), std::string::npos);
}

TEST(HtmlChromium, HaswellPerCoreImport) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const auto file = tree.write("percpu.csv", perf_file(model_events("hsw", 3, true), 0, 4));
  const auto topology = tree.write("lscpu.txt", "# CPU,Core,Socket\n0,0,0\n1,1,0\n2,0,0\n3,1,0\n");
  check_page(tree, file.string(), "--cpu hsw --smt on -l3 --per-core --topology " + topology.string(),
             "hsw-per-core.html");
  const Rendered rendered = render(tree.root() / "page.html");
  EXPECT_NE(rendered.dom.find("<svg class=\"unit-chart\" data-node=\"Backend_Bound\""), std::string::npos);
  EXPECT_NE(rendered.dom.find("data-scope=\"S0-C1\""), std::string::npos);
}

TEST(HtmlChromium, HostileNamesAreTextNotMarkup) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const std::string hostile = "<img src=x onerror=alert(1)>&'\"\xff";
  // A file name, and perf --per-thread rows of a command named with what
  // perf's first column can hold.
  std::string rows;
  for (const auto& event : model_events("zen5", 1, false)) {
    rows += fmt::format("{}-42,{},,{},100000000,100.00,,\n", "<b>app <script>x", count_of(event, 0, 0), event);
  }
  const auto file = tree.write(hostile + ".csv", rows);
  const std::string page = (tree.root() / "page.html").string();
  const CommandResult html =
      run_command(kTopdown + " import --cpu zen5 --smt off --per-thread --html " + page + " " + quoted(file.string()));
  ASSERT_EQ(html.exit_code, 0) << html.err;
  const Rendered rendered = render(page);
  EXPECT_TRUE(rendered.console.empty()) << rendered.console.front();
  EXPECT_EQ(rendered.dom.find("<img"), std::string::npos);
  EXPECT_EQ(rendered.dom.find("<b>"), std::string::npos);
  EXPECT_EQ(rendered.dom.find("<script>x"), std::string::npos);
  EXPECT_NE(rendered.dom.find("&lt;img src=x onerror=alert(1)&gt;&amp;'\"\xEF\xBF\xBD.csv</h1>"), std::string::npos)
      << rendered.dom.substr(0, 2000);
  EXPECT_NE(rendered.dom.find("<option value=\"0\">&lt;b&gt;app &lt;script&gt;x-42</option>"), std::string::npos);
}

}  // namespace
}  // namespace topdown::testing

namespace topdown::testing {
namespace {

const std::string kSoftwareStat =
    TOPDOWN_BIN + std::string(" stat --model ") + TOPDOWN_SOURCE_DIR + "/tests/data/software.model";

TEST(HtmlStat, IntervalsAndTheWholeRunMakeOnePage) {
  TempTree tree;
  const auto page = tree.root() / "stat.html";
  const CommandResult run =
      run_command(kSoftwareStat + " -I 100 -o /dev/null --html " + page.string() + " -- sleep 0.45");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string html = slurp(page.string());
  EXPECT_NE(html.find("<dd>sleep 0.45</dd>"), std::string::npos);
  EXPECT_NE(html.find("every 100 ms"), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"timeline\""), std::string::npos);
  const std::string open = "<script type=\"application/json\" id=\"td-data\">";
  const auto start = html.find(open) + open.size();
  const auto data = nlohmann::json::parse(html.substr(start, html.find("</script>", start) - start));
  EXPECT_GE(data["times"].size(), 4U);
  EXPECT_LE(data["times"].size(), 6U);
}

TEST(HtmlStat, AnUnwritablePageFailsBeforeCountingAndNamesTheOption) {
  TempTree tree;
  const auto page = tree.root() / "missing" / "stat.html";
  const CommandResult run = run_command(kSoftwareStat + " --html " + page.string() + " -- true");
  EXPECT_EQ(run.exit_code, 125);
  EXPECT_NE(run.err.find("choose a writable directory with --html"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(page));
}

}  // namespace
}  // namespace topdown::testing
