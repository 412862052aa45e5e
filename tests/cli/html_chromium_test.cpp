// topdown import, report and compare --html rendered in headless Chromium:
// no console errors, every computed node's box (or compared row) with its
// value, the bottleneck's path outlined, hostile names shown as text. Skipped where Chromium is absent. With
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

#include "../support/synthetic_samples.h"
#include "../support/temp_tree.h"
#include "import/import.h"
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

// `fragment` ("#sort=NODE") is what a link to the page may add.
Rendered render(const std::filesystem::path& page, const std::string& fragment = "") {
  const CommandResult chromium =
      run_command(kChromium +
                  " --headless --no-sandbox --disable-gpu --dump-dom --virtual-time-budget=2000 "
                  "--enable-logging=stderr --v=0 " +
                  quoted("file://" + page.string() + fragment));
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

// One JSON object per line (--per-*, report's functions), the lines that are objects.
std::vector<nlohmann::json> json_records(const std::string& text) {
  std::vector<nlohmann::json> records;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("{") && line.ends_with("}")) records.push_back(nlohmann::json::parse(line));
  }
  return records;
}

// Checks every tree node of `report` in `dom` (the part of the page holding
// its tree): its box, its value, and the outline of the bottleneck's path.
// Returns the length of that path.
size_t check_tree(const std::string& dom, const nlohmann::json& report) {
  std::map<std::string, std::string> parent;
  for (const auto& node : report["nodes"]) parent[node["name"]] = node["parent"].is_null() ? "" : node["parent"];
  std::set<std::string> path;
  if (!report["bottleneck"].is_null()) {
    for (std::string at = report["bottleneck"]; !at.empty(); at = parent[at]) path.insert(at);
  }
  size_t boxes = 0;
  for (const auto& node : report["nodes"]) {
    const std::string name = node["name"];
    const std::string box = node_box(dom, name);
    EXPECT_FALSE(box.empty()) << name << " has no box";
    if (box.empty()) continue;
    EXPECT_NE(box.find("data-value=\"" + value_text(node)), std::string::npos) << name << ": " << box.substr(0, 200);
    EXPECT_EQ(box.find("stroke=\"#000\"") != std::string::npos, path.count(name) > 0) << name << " outline";
    ++boxes;
  }
  EXPECT_GE(boxes, 4U);
  return path.size();
}

void keep_page(const std::string& page, const std::string& keep_as) {
  if (const char* keep = std::getenv("TOPDOWN_HTML_KEEP")) {
    std::filesystem::copy_file(page, std::filesystem::path(keep) / keep_as,
                               std::filesystem::copy_options::overwrite_existing);
  }
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
  keep_page(page, keep_as);
  const Rendered rendered = render(page);
  EXPECT_TRUE(rendered.console.empty()) << rendered.console.front();
  ASSERT_NE(rendered.dom.find("</html>"), std::string::npos) << "Chromium gave no DOM";

  // The first report (JSON lines: the first unit's with --per-*).
  std::vector<nlohmann::json> records = json_records(json_text);
  const nlohmann::json report = records.empty() ? nlohmann::json::parse(json_text) : records.front();
  const size_t tree_start = rendered.dom.find("class=\"unit-tree\"");
  const std::string tree_dom = rendered.dom.substr(tree_start == std::string::npos ? 0 : tree_start);
  EXPECT_GE(check_tree(tree_dom, report), 1U) << "the generated counts have no bottleneck";
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

// A hybrid CPU's perf stat -I file: P-core rows (PERF_METRICS fields) and
// E-core rows (TOPDOWN_*.ALL), two intervals of different counts.
std::string hybrid_file() {
  std::string out = "# started on Mon Jan  6 10:00:00 2025\n\n";
  for (int i = 1; i <= 2; ++i) {
    const auto row = [&](double count, const std::string& event) {
      out += fmt::format("{:.6f},{},,{},100000000,100.00,,\n", 0.1 * i, static_cast<long long>(count), event);
    };
    const double p_slots = 2000e6;
    row(p_slots, "cpu_core/slots/");
    row(p_slots * (0.2 + 0.1 * i), "cpu_core/topdown-retiring/");
    row(p_slots * 0.05, "cpu_core/topdown-bad-spec/");
    row(p_slots * 0.3, "cpu_core/topdown-fe-bound/");
    row(p_slots * (0.45 - 0.1 * i), "cpu_core/topdown-be-bound/");
    row(0, "cpu_core/INT_MISC.UOP_DROPPING/");
    row(3e6 * i, "cpu_core/CPU_CLK_UNHALTED.THREAD/");
    const double e_cycles = 1e6;
    row(e_cycles, "cpu_atom/CPU_CLK_UNHALTED.CORE/");
    row(5 * e_cycles * 0.3, "cpu_atom/TOPDOWN_FE_BOUND.ALL/");
    row(5 * e_cycles * (0.2 + 0.1 * i), "cpu_atom/TOPDOWN_BE_BOUND.ALL/");
    row(5 * e_cycles * 0.2, "cpu_atom/TOPDOWN_RETIRING.ALL/");
  }
  return out;
}

TEST(HtmlChromium, HybridImportHasASectionPerCoreType) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const auto file = tree.write("hybrid.csv", hybrid_file()).string();
  const std::string page = (tree.root() / "page.html").string();
  const CommandResult json = run_command(kTopdown + " import --cpu adl --smt off --json " + file);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const std::vector<nlohmann::json> records = json_records(json.err);
  ASSERT_EQ(records.size(), 2U) << json.err;
  const CommandResult html =
      run_command(kTopdown + " import --cpu adl --smt off --per-interval -o /dev/null --html " + page + " " + file);
  ASSERT_EQ(html.exit_code, 0) << html.err;
  keep_page(page, "adl-hybrid.html");
  const Rendered rendered = render(page);
  EXPECT_TRUE(rendered.console.empty()) << rendered.console.front();
  ASSERT_NE(rendered.dom.find("</html>"), std::string::npos) << "Chromium gave no DOM";

  // P-cores first, each section headed by its share and drawing its own tree.
  std::vector<size_t> sections;
  for (const nlohmann::json& record : records) {
    const std::string heading =
        fmt::format("<h2 class=\"core-type\">{}: {:.1f}% of the cycles</h2>", record["core_type"].get<std::string>(),
                    record["core_share"].get<double>() * 100);
    sections.push_back(rendered.dom.find(heading));
    ASSERT_NE(sections.back(), std::string::npos) << heading;
  }
  EXPECT_EQ(records[0]["core_type"], "P-core");
  ASSERT_LT(sections[0], sections[1]);
  check_tree(rendered.dom.substr(sections[0], sections[1] - sections[0]), records[0]);
  check_tree(rendered.dom.substr(sections[1]), records[1]);
  // Each type's timeline and data (a script that found no data of a section
  // would have thrown, seen on the console above).
  for (const char* prefix : {"type0-", "type1-"}) {
    EXPECT_NE(rendered.dom.find(std::string("<section id=\"") + prefix + "time\">"), std::string::npos) << prefix;
    EXPECT_NE(rendered.dom.find(std::string("id=\"") + prefix + "td-data\""), std::string::npos) << prefix;
  }
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

// How often `text` occurs in `dom`.
size_t count_of_text(const std::string& dom, const std::string& text) {
  size_t count = 0;
  for (auto at = dom.find(text); at != std::string::npos; at = dom.find(text, at + 1)) ++count;
  return count;
}

// In Chromium's DOM text: & < > as references (and " too in attributes).
std::string dom_text(const std::string& text, bool attribute) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"' && attribute) {
      out += "&quot;";
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// The events of a Skylake leader-sampled group: the clock leads, then
// every other event of the model.
std::vector<std::string> skylake_group() {
  const model::Model skl = model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "skl.model");
  std::vector<std::string> group = {"CPU_CLK_UNHALTED.THREAD"};
  for (const auto& event : import::model_events(skl)) {
    if (event != group[0]) group.push_back(event);
  }
  return group;
}

// `topdown report --cpu skl -v LEVEL` of `script`: its --json report
// (returned) and its --html page, report.html in `tree`, kept as `keep_as`.
std::string report_json_and_page(const TempTree& tree, const std::string& level, const std::string& script,
                                 const std::string& keep_as) {
  const std::string options = " report --cpu skl --smt off -v " + level + " ";
  const std::string json_file = (tree.root() / "report.json").string();
  const std::string page = (tree.root() / "report.html").string();
  const CommandResult json = run_command(kTopdown + options + "--json -o " + json_file + " " + script);
  EXPECT_EQ(json.exit_code, 0) << json.err;
  const CommandResult html = run_command(kTopdown + options + "-o /dev/null --html " + page + " " + script);
  EXPECT_EQ(html.exit_code, 0) << html.err;
  keep_page(page, keep_as);
  return slurp(json_file);
}

// A `topdown report` page of a synthetic Skylake perf script (the
// IntelReport functions): every function's tree has its boxes with the
// values of its --json record, the bottleneck's path outlined.
TEST(HtmlChromium, SkylakeReportOfFunctions) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const std::vector<std::string> group = skylake_group();
  std::vector<SyntheticFunction> functions;
  for (const auto& [name, cycles] :
       {std::pair{"big", 800'000'000ULL}, {"hot", 150'000'000ULL}, {"cold", 40'000'000ULL}}) {
    SyntheticFunction function;
    function.name = name;
    function.source = std::string(name) + ".c:7";
    function.totals = intel_totals(group, cycles);
    functions.push_back(std::move(function));
  }
  const auto script = tree.write("script.txt", synthetic_perf_script(group, functions)).string();
  const std::string page = (tree.root() / "report.html").string();
  const std::string json_text = report_json_and_page(tree, "-l 3", script, "skl-report.html");
  ASSERT_FALSE(HasFailure()) << "topdown report failed";
  const Rendered rendered = render(page);
  EXPECT_TRUE(rendered.console.empty()) << rendered.console.front();
  ASSERT_NE(rendered.dom.find("</html>"), std::string::npos) << "Chromium gave no DOM";

  size_t units = 0;
  size_t with_bottleneck = 0;
  for (const auto& record : json_records(json_text)) {
    if (!record.contains("nodes")) continue;  // the locate table
    const std::string scope = record["scope"];
    SCOPED_TRACE(scope);
    const auto start = rendered.dom.find("data-scope=\"" + scope + "\"", rendered.dom.find("class=\"unit-tree\""));
    ASSERT_NE(start, std::string::npos) << "no tree";
    const auto end = rendered.dom.find("class=\"unit-tree\"", start);
    if (check_tree(rendered.dom.substr(start, end == std::string::npos ? std::string::npos : end - start), record) >
        0) {
      ++with_bottleneck;
    }
    ++units;
  }
  EXPECT_EQ(units, 4U) << "the whole program and three functions";
  // No call stacks: the flame graph is one level, the root and the three functions.
  EXPECT_NE(rendered.dom.find("The recording has no call stacks"), std::string::npos);
  EXPECT_EQ(count_of_text(rendered.dom, "<g class=\"frame "), 4U);
  // cold is under the 5% rule: flagged nowhere, so no bottleneck to outline.
  EXPECT_EQ(with_bottleneck, 3U);
}

// The flame graph frame named `name` (the first), its <g> up to its </g>.
std::string frame_of(const std::string& dom, const std::string& name) {
  const auto at = dom.find("data-name=\"" + name + "\"");
  if (at == std::string::npos) return "";
  const auto start = dom.rfind("<g ", at);
  return dom.substr(start, dom.find("</g>", at) - start);
}

// The level-1 node with the largest value in a --json record.
std::string largest_level1(const nlohmann::json& record) {
  std::string largest;
  double value = -1;
  for (const auto& node : record["nodes"]) {
    if (node["level"] == 1 && !node["value"].is_null() && node["value"].get<double>() > value) {
      value = node["value"].get<double>();
      largest = node["name"];
    }
  }
  return largest;
}

// A Skylake perf script of leader samples with callchains (perf record -g):
// leaf through outer_b (600M cycles) and through outer_c (200M), outer_a
// (150M, its uops mostly not delivered: Frontend Bound) and a long C++ name
// (100M), all from main. The flame graph has a frame per call path, as wide
// as its cycles, coloured by its largest level-1 node as --json gives it;
// the functions table sorts by a node's slots and shows whole names on hover.
TEST(HtmlChromium, SkylakeReportFlameGraphAndFunctionTable) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const std::vector<std::string> group = skylake_group();
  const std::string long_name =
      "app::detail::very_long_namespace_name::Kernel<std::vector<double, std::allocator<double> > >::run(unsigned "
      "long, double const&)";
  struct Stack {
    std::string function;
    std::vector<std::string> callers;
    uint64_t cycles;
  };
  const std::vector<Stack> stacks = {{"leaf", {"outer_b", "main"}, 600'000'000},
                                     {"leaf", {"outer_c", "main"}, 200'000'000},
                                     {"outer_a", {"main"}, 150'000'000},
                                     {long_name, {"main"}, 100'000'000}};
  std::vector<SyntheticFunction> functions;
  for (const Stack& stack : stacks) {
    SyntheticFunction function;
    function.name = stack.function;
    function.callers = stack.callers;
    function.totals = intel_totals(group, stack.cycles);
    // 60% Frontend Bound: 2.4 of 4 slots a cycle not delivered.
    if (stack.function == "outer_a") function.totals["IDQ_UOPS_NOT_DELIVERED.CORE"] = stack.cycles * 24 / 10;
    functions.push_back(std::move(function));
  }
  const auto script = tree.write("script.txt", synthetic_perf_script(group, functions)).string();
  const std::string page = (tree.root() / "report.html").string();
  const std::string json_text = report_json_and_page(tree, "-l 2", script, "skl-report-flame.html");
  ASSERT_FALSE(HasFailure()) << "topdown report failed";
  std::map<std::string, nlohmann::json> records;
  for (const auto& record : json_records(json_text)) {
    if (record.contains("function")) records[record["function"]] = record;
  }
  ASSERT_EQ(records.count("leaf"), 1U);
  ASSERT_EQ(records.count("outer_a"), 1U);

  const Rendered rendered = render(page);
  EXPECT_TRUE(rendered.console.empty()) << rendered.console.front();
  const std::string& dom = rendered.dom;
  ASSERT_NE(dom.find("</html>"), std::string::npos) << "Chromium gave no DOM";
  // root, main, outer_b, its leaf, outer_c, its leaf, outer_a, the long name.
  EXPECT_EQ(count_of_text(dom, "<g class=\"frame "), 8U);
  const double cycles = 600e6 + 200e6 + 150e6 + 100e6;
  const std::string outer_b = frame_of(dom, "outer_b");
  EXPECT_NE(outer_b.find(fmt::format("width=\"{:.1f}\"", 600e6 / cycles * 1200)), std::string::npos) << outer_b;
  EXPECT_NE(frame_of(dom, "main").find("width=\"1200.0\""), std::string::npos);
  // leaf's frames are all of leaf's samples, outer_a's all of outer_a's.
  EXPECT_NE(frame_of(dom, "leaf").find("class=\"frame dominant-" + largest_level1(records["leaf"]) + "\""),
            std::string::npos)
      << frame_of(dom, "leaf");
  EXPECT_EQ(largest_level1(records["outer_a"]), "Frontend_Bound");
  EXPECT_NE(frame_of(dom, "outer_a").find("class=\"frame dominant-Frontend_Bound\""), std::string::npos)
      << frame_of(dom, "outer_a");

  // The whole name on hover, cut in the middle in the cell.
  const std::string cell = "<td class=\"name\" title=\"" + dom_text(long_name, true) + "\">";
  const auto at = dom.find(cell);
  ASSERT_NE(at, std::string::npos) << "no cell with the whole name as its title";
  const std::string shown = dom.substr(at + cell.size(), dom.find("</td>", at) - at - cell.size());
  EXPECT_TRUE(shown.starts_with("app::detail::")) << shown;
  EXPECT_TRUE(shown.ends_with("double const&amp;)")) << shown;
  EXPECT_NE(shown.find("\u2026"), std::string::npos) << shown;

  // By share: leaf, outer_a, the long name; by Frontend_Bound's slots
  // (value x cycles: outer_a 0.6 x 150M over leaf's 0.1 x 800M) outer_a first.
  const auto row_order = [](const std::string& text) {
    std::vector<std::string> names;
    for (auto row = text.find("<tr class=\"function"); row != std::string::npos;
         row = text.find("<tr class=\"function", row + 1)) {
      const auto title = text.find("title=\"", row) + 7;
      names.push_back(text.substr(title, text.find('"', title) - title).substr(0, 12));
    }
    return names;
  };
  const std::vector<std::string> by_share = {"[whole progr", "leaf", "outer_a", "app::detail:"};
  EXPECT_EQ(row_order(dom), by_share);
  const Rendered sorted = render(page, "#sort=Frontend_Bound");
  EXPECT_TRUE(sorted.console.empty()) << sorted.console.front();
  const std::vector<std::string> by_frontend = {"[whole progr", "outer_a", "leaf", "app::detail:"};
  EXPECT_EQ(row_order(sorted.dom), by_frontend);

  // A click on outer_b zooms into it (the whole width, outer_c gone, main
  // under it, faded), "leaf" in the search box marks both leaf frames, and
  // a click on outer_a's row shows its tree: a copy of the page that does
  // these once it has loaded.
  std::string acted = slurp(page);
  acted.insert(acted.rfind("</body>"),
               "<script>addEventListener('load',function(){"
               "document.querySelector('g.frame[data-name=\"outer_b\"]').dispatchEvent(new Event('click'));"
               "var s=document.getElementById('flame-search');s.value='LEAF';s.dispatchEvent(new Event('input'));"
               "document.querySelector('tr.function[data-index=\"2\"]').dispatchEvent(new Event('click'));"
               "});</script>");
  const auto acted_page = tree.write("acted.html", acted);
  const Rendered zoomed = render(acted_page);
  EXPECT_TRUE(zoomed.console.empty()) << zoomed.console.front();
  EXPECT_NE(frame_of(zoomed.dom, "outer_b").find("width=\"1200.0\""), std::string::npos)
      << frame_of(zoomed.dom, "outer_b");
  EXPECT_NE(frame_of(zoomed.dom, "outer_c").find("display: none"), std::string::npos);
  EXPECT_NE(frame_of(zoomed.dom, "main").find("class=\"frame dominant-"), std::string::npos);
  EXPECT_NE(frame_of(zoomed.dom, "main").find(" ancestor\""), std::string::npos) << frame_of(zoomed.dom, "main");
  EXPECT_EQ(count_of_text(zoomed.dom, " match\" data-frame="), 2U) << "both leaf frames";
  EXPECT_NE(zoomed.dom.find(fmt::format("{:.1f}% of the clockticks match", 800e6 / cycles * 100)), std::string::npos);
  EXPECT_NE(zoomed.dom.find("<tr class=\"function selected\" data-index=\"2\""), std::string::npos);
  EXPECT_NE(zoomed.dom.find("<div class=\"unit-tree\" data-index=\"2\" data-scope=\"outer_a [/usr/bin/app]\">"),
            std::string::npos);
  EXPECT_NE(zoomed.dom.find("<div class=\"unit-tree\" data-index=\"0\" data-scope=\"[whole program]\" hidden"),
            std::string::npos);
}

// A saved --json report of Haswell's level 1 and 2, made by hand with known
// values: level 1 and its children from `level1` (children share their
// parent's value evenly), `runs` runs each with a small spread, IPC, and an
// Info metric named with `hostile` bytes measured once.
std::string saved_report(const std::vector<std::string>& scopes, const std::map<std::string, double>& level1,
                         double ipc, int runs, const std::string& hostile) {
  const model::Model hsw = model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "hsw.model");
  std::map<std::string, int> children;
  for (const auto& node : hsw.nodes) {
    if (!node.is_info && node.level == 2) ++children[node.parent];
  }
  std::string out;
  for (const std::string& scope : scopes) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& node : hsw.nodes) {
      if (node.is_info || node.level > 2) continue;
      const double value = node.level == 1 ? level1.at(node.name) : level1.at(node.parent) / children[node.parent];
      nodes.push_back({{"name", node.name},
                       {"level", node.level},
                       {"parent", node.parent.empty() ? nlohmann::json() : nlohmann::json(node.parent)},
                       {"value", value},
                       {"runs", runs},
                       {"stddev", 0.002},
                       {"area", node.area}});
    }
    const nlohmann::json info = {
        {{"name", "IPC"}, {"value", ipc}, {"unit", "IPC"}, {"runs", runs}, {"stddev", 0.01}},
        {{"name", "HOSTILE"}, {"value", 3.0}, {"unit", "per-mille"}},
        {{"name", "Kernel_Utilization"}, {"value", nullptr}, {"unit", "fraction"}, {"runs", runs}, {"stddev", 0}}};
    const nlohmann::json record = {{"format", "topdown-1"}, {"model", {{"name", "hsw"}, {"title", "Intel Haswell"}}},
                                   {"scope", scope},        {"time", nullptr},
                                   {"nodes", nodes},        {"info", info}};
    std::string line = record.dump();
    // The name's raw bytes (a quote escaped for JSON): nlohmann writes only valid UTF-8.
    std::string name;
    for (char c : hostile) name += c == '"' ? std::string("\\\"") : std::string(1, c);
    line.replace(line.find("HOSTILE"), 7, name);
    out += line + "\n";
  }
  return out;
}

// The compare page's texts, as compare's text output writes them.
std::string compared_value(const nlohmann::json& value, bool points) {
  if (value.is_null()) return "n/a";
  return points ? fmt::format("{:.1f}%", value.get<double>() * 100) : fmt::format("{:.2f}", value.get<double>());
}

std::string compared_change(const nlohmann::json& change) {
  if (change["change"].is_null()) return "n/a";
  const double value = change["change"].get<double>();
  return change["kind"] == "node" ? fmt::format("{:+.1f} pt", value) : fmt::format("{:+.1f}%", value);
}

// `topdown compare --html` of two hand-made reports of two cores each, five
// runs a side: Backend_Bound and Memory_Bound up 10 points (significant, a
// gate trips), Retiring down 10, Frontend_Bound unchanged, IPC down 20%, an
// Info metric measured once (cannot judge) and one n/a; the file and a
// metric named with markup, quotes and a byte that is not UTF-8.
TEST(HtmlChromium, CompareOfRepeatedRuns) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const std::string hostile = "<img src=x onerror=alert(1)>&'\"\xff";
  const std::vector<std::string> cores = {"S0-C0", "S0-C1"};
  const auto a = tree.write(
      hostile + ".json",
      saved_report(cores,
                   {{"Frontend_Bound", 0.2}, {"Bad_Speculation", 0.1}, {"Backend_Bound", 0.45}, {"Retiring", 0.25}},
                   2.0, 5, hostile));
  const auto b = tree.write(
      "after.json",
      saved_report(cores,
                   {{"Frontend_Bound", 0.2}, {"Bad_Speculation", 0.1}, {"Backend_Bound", 0.55}, {"Retiring", 0.15}},
                   1.6, 5, hostile));
  const std::string gates = " --fail-if 'Backend_Bound>+5' --fail-if 'Retiring>+1' ";
  const std::string page = (tree.root() / "compare.html").string();
  const CommandResult json =
      run_command(kTopdown + " compare --json" + gates + quoted(a.string()) + " " + quoted(b.string()));
  ASSERT_EQ(json.exit_code, 1) << json.err;
  const CommandResult html = run_command(kTopdown + " compare -o /dev/null --html " + page + gates +
                                         quoted(a.string()) + " " + quoted(b.string()));
  ASSERT_EQ(html.exit_code, 1) << html.err;
  keep_page(page, "hsw-compare.html");
  const Rendered rendered = render(page);
  EXPECT_TRUE(rendered.console.empty()) << rendered.console.front();
  const std::string& dom = rendered.dom;
  ASSERT_NE(dom.find("</html>"), std::string::npos) << "Chromium gave no DOM";

  const nlohmann::json comparison = nlohmann::json::parse(json.err);
  ASSERT_EQ(comparison["scopes"].size(), 2U);
  size_t rows = 0;
  for (const auto& scope : comparison["scopes"]) {
    const std::string name = scope["scope"];
    const auto start = dom.find("<div class=\"scope\" data-index=\"" + std::to_string(rows ? 1 : 0) +
                                "\" data-scope=\"" + name + "\"");
    ASSERT_NE(start, std::string::npos) << name;
    const std::string section = dom.substr(start, dom.find("</div>", start) - start);
    for (const char* side : {"A", "B"}) {
      EXPECT_NE(section.find(fmt::format("data-side=\"{}\" data-node=\"Backend_Bound\"", side)), std::string::npos);
    }
    for (const auto& change : scope["changes"]) {
      const std::string node = change["name"];
      const bool points = change["kind"] == "node";
      SCOPED_TRACE(name + " " + node);
      const auto at = section.find("data-node=\"" + dom_text(node, true) + "\" data-state=");
      ASSERT_NE(at, std::string::npos) << "no row";
      const auto row_start = section.rfind("<tr ", at);
      const std::string row = section.substr(row_start, section.find("</tr>", at) - row_start);
      EXPECT_NE(row.find(fmt::format("<td class=\"a\">{}</td><td class=\"b\">{}</td>",
                                     compared_value(change["a"], points), compared_value(change["b"], points))),
                std::string::npos)
          << row.substr(0, 400);
      EXPECT_NE(row.find("<td class=\"change\">" + compared_change(change) + "</td>"), std::string::npos)
          << row.substr(0, 400);
      EXPECT_EQ(row.find("NaN"), std::string::npos);
      const std::string state = change["change"].is_null()        ? "na"
                                : change["significant"].is_null() ? "unjudged"
                                : change["significant"]           ? "significant"
                                                                  : "not-significant";
      EXPECT_NE(row.find("data-state=\"" + state + "\""), std::string::npos) << row.substr(0, 400);
      if (!change["p_value"].is_null()) {
        EXPECT_NE(row.find(fmt::format("t-test: p = {:.3g}", change["p_value"].get<double>())), std::string::npos)
            << "the tooltip";
      }
      ++rows;
    }
  }
  EXPECT_EQ(rows, 2U * (4 + 8 + 3)) << "level 1, level 2 and three Info metrics per core";
  // Significant, and the gate on it tripped; Frontend_Bound unchanged; the
  // once-measured metric cannot be judged.
  EXPECT_NE(dom.find("<tr class=\"change significant tripped\" data-node=\"Backend_Bound\""), std::string::npos);
  EXPECT_NE(dom.find("<tr class=\"change significant\" data-node=\"Retiring\""), std::string::npos);
  EXPECT_NE(dom.find("<tr class=\"change not-significant\" data-node=\"Frontend_Bound\""), std::string::npos);
  EXPECT_NE(dom.find("<tr class=\"change unjudged\" data-node=\"&lt;img"), std::string::npos);
  EXPECT_NE(dom.find("<li class=\"gate tripped\" data-gate=\"Backend_Bound&gt;+5\">--fail-if 'Backend_Bound&gt;+5': "
                     "FAILED in S0-C0, S0-C1</li>"),
            std::string::npos);
  EXPECT_NE(dom.find("<li class=\"gate passed\" data-gate=\"Retiring&gt;+1\">"), std::string::npos);
  // The hostile names are text: no element made of them.
  EXPECT_EQ(dom.find("<img"), std::string::npos);
  const std::string shown = "&lt;img src=x onerror=alert(1)&gt;&amp;'\"\xEF\xBF\xBD";
  EXPECT_NE(dom.find("<h1>topdown compare: " + (tree.root() / shown).string() + ".json → "), std::string::npos)
      << dom.substr(0, 3000);
  EXPECT_NE(dom.find("<td class=\"name\" style=\"padding-left:8px\">" + shown + "</td>"), std::string::npos);
}

// The frames of a Skylake perf script with call stacks: leaf through
// outer_b (600M cycles), outer_a (150M) and `third` (100M), all from main;
// outer_a with its uops mostly not delivered (Frontend Bound) when
// `frontend_bound`.
std::string stacks_script(TempTree& tree, const std::string& name, bool frontend_bound, const std::string& third) {
  const std::vector<std::string> group = skylake_group();
  struct Stack {
    std::string function;
    std::vector<std::string> callers;
    uint64_t cycles;
  };
  const std::vector<Stack> stacks = {
      {"leaf", {"outer_b", "main"}, 600'000'000}, {"outer_a", {"main"}, 150'000'000}, {third, {"main"}, 100'000'000}};
  std::vector<SyntheticFunction> functions;
  for (const Stack& stack : stacks) {
    SyntheticFunction function;
    function.name = stack.function;
    function.callers = stack.callers;
    function.totals = intel_totals(group, stack.cycles);
    if (frontend_bound && stack.function == "outer_a") {
      function.totals["IDQ_UOPS_NOT_DELIVERED.CORE"] = stack.cycles * 24 / 10;
    }
    functions.push_back(std::move(function));
  }
  return tree.write(name, synthetic_perf_script(group, functions)).string();
}

// The value of attribute `name` in `element` ("" when absent).
std::string attribute(const std::string& element, const std::string& name) {
  const auto at = element.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const auto start = at + name.size() + 3;
  return element.substr(start, element.find('"', start) - start);
}

// `topdown compare --html` of two recordings (perf script of Skylake's
// level 2): B's call stacks, outer_a no longer Frontend Bound (its largest
// level-1 node, Backend Bound, grew: red), leaf unchanged (grey), `fresh`
// new in B (marked) and `stale` gone from A (listed); the colour follows
// the node chosen (Frontend Bound shrank in outer_a: blue).
TEST(HtmlChromium, CompareOfRecordingsDrawsADifferentialFlameGraph) {
  SKIP_WITHOUT_CHROMIUM();
  TempTree tree;
  const std::string a = stacks_script(tree, "a.txt", true, "stale");
  const std::string b = stacks_script(tree, "b.txt", false, "fresh");
  const std::string page = (tree.root() / "compare.html").string();
  const std::string options = " compare --cpu skl --smt off -l 2 ";
  const CommandResult json = run_command(kTopdown + options + "--json " + a + " " + b);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const CommandResult html = run_command(kTopdown + options + "-o /dev/null --html " + page + " " + a + " " + b);
  ASSERT_EQ(html.exit_code, 0) << html.err;
  keep_page(page, "skl-compare-flame.html");
  const nlohmann::json comparison = nlohmann::json::parse(json.err);
  double backend_change = 0;
  double frontend_change = 0;
  for (const auto& scope : comparison["scopes"]) {
    if (scope["function"] != "outer_a") continue;
    for (const auto& change : scope["changes"]) {
      if (change["name"] == "Backend_Bound") backend_change = change["change"].get<double>();
      if (change["name"] == "Frontend_Bound") frontend_change = change["change"].get<double>();
    }
  }
  ASSERT_GT(backend_change, 20) << "outer_a's Backend_Bound should take what Frontend_Bound gave up";
  ASSERT_LT(frontend_change, -20);

  const Rendered rendered = render(page);
  EXPECT_TRUE(rendered.console.empty()) << rendered.console.front();
  const std::string& dom = rendered.dom;
  const auto section = dom.find("<section id=\"diff-flame\">");
  ASSERT_NE(section, std::string::npos) << "no differential flame graph";
  const std::string flame = dom.substr(section, dom.find("</section>", section) - section);
  // root, main, outer_b, leaf, outer_a, fresh: B's frames.
  EXPECT_EQ(count_of_text(flame, "<g class=\"frame"), 6U);
  const std::string outer_a = frame_of(flame, "outer_a");
  EXPECT_EQ(attribute(outer_a, "data-node"), "Backend_Bound") << outer_a;
  EXPECT_EQ(attribute(outer_a, "data-change"), fmt::format("{:.1f}", backend_change));
  EXPECT_NE(outer_a.find("fill=\"rgb(214,39,40)\""), std::string::npos) << "full red past 20 points: " << outer_a;
  EXPECT_NE(outer_a.find(fmt::format("Frontend_Bound 60.0% -&gt; {:.1f}%", 60 + frontend_change)), std::string::npos)
      << "the hover's tree: " << outer_a;
  const std::string leaf = frame_of(flame, "leaf");
  EXPECT_EQ(attribute(leaf, "data-change"), "0.0");
  EXPECT_NE(leaf.find("fill=\"rgb(232,232,232)\""), std::string::npos) << leaf;
  EXPECT_NE(frame_of(flame, "main").find(fmt::format("width=\"{:.1f}\"", 1200.0)), std::string::npos);
  EXPECT_EQ(attribute(frame_of(flame, "fresh"), "class"), "frame new");
  EXPECT_NE(flame.find("<li data-name=\"stale\">"), std::string::npos) << "stale is gone from A";
  EXPECT_EQ(flame.find("NaN"), std::string::npos);

  // Colour by Frontend_Bound: outer_a turns blue.
  std::string acted = slurp(page);
  acted.insert(acted.rfind("</body>"),
               "<script>addEventListener('load',function(){var s=document.getElementById('diff-flame-colour');"
               "s.value=Array.from(s.options).find(function(o){return o.text.endsWith('Frontend_Bound share');})"
               ".value;s.dispatchEvent(new Event('change'));});</script>");
  const Rendered recoloured = render(tree.write("acted.html", acted));
  EXPECT_TRUE(recoloured.console.empty()) << recoloured.console.front();
  const std::string blue = frame_of(recoloured.dom, "outer_a");
  EXPECT_EQ(attribute(blue, "data-node"), "Frontend_Bound") << blue;
  EXPECT_EQ(attribute(blue, "data-change"), fmt::format("{:.1f}", frontend_change));
  EXPECT_NE(blue.find("fill=\"rgb(31,119,180)\""), std::string::npos) << blue;
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
