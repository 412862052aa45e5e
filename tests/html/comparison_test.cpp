#include "html/comparison.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "html/draw.h"

namespace topdown::html {
namespace {

using compare::Change;

Change change(const std::string& name, int level, std::optional<double> a, std::optional<double> b,
              std::optional<double> p = std::nullopt, const std::string& area = "BE") {
  Change c;
  c.name = name;
  c.level = level;
  c.parent = level > 1 ? "Backend_Bound" : "";
  c.area = level > 0 ? area : "";
  c.unit = level > 0 ? "fraction" : "IPC";
  c.a = a;
  c.b = b;
  c.a_runs = a ? 5 : 0;
  c.b_runs = b ? 5 : 0;
  if (a && b) c.change = level > 0 ? (*b - *a) * 100 : (*b - *a) / *a * 100;
  c.p_value = p;
  c.significant = p && *p < 0.05 && std::abs(*c.change) >= 1;
  return c;
}

compare::Comparison comparison(const std::string& scope = "") {
  compare::Comparison out;
  out.a.label = "base.json";
  out.a.model = "zen5";
  out.a.deepest_level = 2;
  out.b = out.a;
  out.b.label = "new.json";
  compare::ScopeChanges changes;
  changes.scope = scope;
  changes.changes = {
      change("Frontend_Bound", 1, 0.20, 0.19, 0.4, "FE"), change("Backend_Bound", 1, 0.50, 0.58, 0.001),
      change("Memory_Bound", 2, 0.30, 0.307, 1e-7),       change("Retiring", 1, 0.30, 0.23, std::nullopt, "RET"),
      change("Core_Bound", 2, std::nullopt, 0.2),         change("IPC", 0, 2.0, 1.5, 0.01)};
  out.scopes.push_back(std::move(changes));
  return out;
}

std::string row_of(const std::string& page, const std::string& node) {
  const auto at = page.find("<tr class=\"change ", page.find("<tbody>"));
  for (auto start = at; start != std::string::npos; start = page.find("<tr class=\"change ", start + 1)) {
    const std::string row = page.substr(start, page.find("</tr>", start) - start);
    if (row.find("data-node=\"" + node + "\"") != std::string::npos) return row;
  }
  return "";
}

TEST(ComparisonPage, EveryChangeHasARowWithItsValuesAndState) {
  const auto compared = comparison();
  std::vector<compare::GateVerdict> verdicts = {{compare::parse_gate("Backend_Bound>+5"), {""}, true},
                                                {compare::parse_gate("IPC<-50"), {}, true}};
  const std::string page = comparison_page(compared, verdicts);
  EXPECT_EQ(page.find("nan"), std::string::npos);
  const std::string backend = row_of(page, "Backend_Bound");
  EXPECT_NE(backend.find("class=\"change significant tripped\""), std::string::npos) << backend;
  EXPECT_NE(backend.find("<td class=\"a\">50.0%</td><td class=\"b\">58.0%</td>"), std::string::npos) << backend;
  EXPECT_NE(backend.find("<td class=\"change\">+8.0 pt</td>"), std::string::npos) << backend;
  EXPECT_NE(backend.find("yes (p 0.001)<span class=\"gate\">gate 'Backend_Bound&gt;+5' tripped</span>"),
            std::string::npos)
      << backend;
  EXPECT_NE(backend.find("t-test: p = 0.001: significant"), std::string::npos) << "the tooltip";
  // 0.7 points with a tiny p: under the floor, and the tooltip says so.
  const std::string memory = row_of(page, "Memory_Bound");
  EXPECT_NE(memory.find("data-state=\"not-significant\""), std::string::npos) << memory;
  EXPECT_NE(memory.find("not significant (a change under 1 point (Info metrics: 1%))"), std::string::npos) << memory;
  EXPECT_NE(row_of(page, "Frontend_Bound").find("data-state=\"not-significant\""), std::string::npos);
  const std::string retiring = row_of(page, "Retiring");
  EXPECT_NE(retiring.find("data-state=\"unjudged\""), std::string::npos) << retiring;
  EXPECT_NE(retiring.find("cannot judge"), std::string::npos) << retiring;
  EXPECT_NE(retiring.find("stroke-dasharray"), std::string::npos) << "a dashed bar";
  const std::string core = row_of(page, "Core_Bound");
  EXPECT_NE(core.find("<td class=\"a\">n/a</td><td class=\"b\">20.0%</td>"), std::string::npos) << core;
  EXPECT_NE(core.find("<td class=\"change\">n/a</td>"), std::string::npos) << core;
  EXPECT_EQ(core.find("<rect"), std::string::npos) << "no bar for n/a";
  EXPECT_NE(row_of(page, "IPC").find("<td class=\"a\">2.00</td><td class=\"b\">1.50</td>"), std::string::npos);
  EXPECT_NE(row_of(page, "IPC").find("<td class=\"change\">-25.0%</td>"), std::string::npos);
  // The header's gates.
  EXPECT_NE(page.find("<li class=\"gate tripped\" data-gate=\"Backend_Bound&gt;+5\">"), std::string::npos);
  EXPECT_NE(page.find("<li class=\"gate passed\" data-gate=\"IPC&lt;-50\">"), std::string::npos);
  // Significant changes, tree nodes first: Backend_Bound, then IPC.
  const auto list = page.find("<ol class=\"moves\">");
  ASSERT_NE(list, std::string::npos);
  EXPECT_LT(page.find("data-node=\"Backend_Bound\"", list), page.find("data-node=\"IPC\"", list));
}

TEST(ComparisonPage, LevelOneOfBothSidesAsStackedBars) {
  const std::string svg = level1_bars_svg(comparison().scopes[0]);
  for (const char* side : {"A", "B"}) {
    for (const char* node : {"Frontend_Bound", "Backend_Bound", "Retiring"}) {
      EXPECT_NE(svg.find(fmt::format("data-side=\"{}\" data-node=\"{}\"", side, node)), std::string::npos)
          << side << " " << node;
    }
    EXPECT_EQ(svg.find(fmt::format("data-side=\"{}\" data-node=\"Memory_Bound\"", side)), std::string::npos);
  }
  // The track is 976 wide from x 24: A's Backend_Bound is half of it, after Frontend_Bound's fifth.
  EXPECT_NE(svg.find(R"(data-side="A" data-node="Backend_Bound" data-value="50.0%"><title>Backend_Bound: 50.0% in )"
                     R"(A</title><rect x="219.2" y="0.0" width="488.0")"),
            std::string::npos)
      << svg;
  // B's level 1 sums to 100%: nothing narrowed.
  EXPECT_NE(svg.find(R"(<rect x="775.5" y="34.0" width="224.5")"), std::string::npos) << svg;
}

TEST(ComparisonPage, BarScalesAreRoundAndAtLeastTheLeast) {
  EXPECT_EQ(bar_scale(0, 5), 5);
  EXPECT_EQ(bar_scale(3, 5), 5);
  EXPECT_EQ(bar_scale(5, 5), 5);
  EXPECT_EQ(bar_scale(12, 5), 20);
  EXPECT_EQ(bar_scale(51, 5), 100);
  EXPECT_EQ(bar_scale(99.9, 10), 100);
}

TEST(ComparisonPage, ScopesGetAChooserAndEachItsSection) {
  auto compared = comparison("S0-C0");
  compared.scopes.push_back(compared.scopes[0]);
  compared.scopes[1].scope = "S0-C1";
  compared.only_in_b = {"S0-C2"};
  const std::string page = comparison_page(compared, {});
  EXPECT_NE(page.find(R"(<select id="scope-choice"><option value="0">S0-C0</option><option value="1">S0-C1</option>)"),
            std::string::npos);
  EXPECT_NE(page.find(R"(<div class="scope" data-index="0" data-scope="S0-C0">)"), std::string::npos);
  EXPECT_NE(page.find(R"(<div class="scope" data-index="1" data-scope="S0-C1" hidden>)"), std::string::npos);
  EXPECT_NE(page.find("<dt>only in B</dt><dd>S0-C2</dd>"), std::string::npos);
}

TEST(ComparisonPage, ManyScopesDrawTheFirstAndListTheBiggestChanges) {
  auto compared = comparison("f0");
  for (int i = 1; i < 70; ++i) {
    compared.scopes.push_back(compared.scopes[0]);
    compared.scopes.back().scope = "f" + std::to_string(i);
  }
  const std::string page = comparison_page(compared, {});
  auto count = [&](const std::string& text) {
    size_t n = 0;
    for (auto at = page.find(text); at != std::string::npos; at = page.find(text, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<div class=\"scope\""), 64U);
  EXPECT_NE(page.find("The first 64 of 70 scopes are drawn."), std::string::npos);
  // Backend_Bound and IPC are significant in each scope: 140 changes.
  EXPECT_EQ(count("<li data-node="), 20U);
  EXPECT_NE(page.find("The biggest 20 of 140 significant changes; the tables below have all."), std::string::npos);
}

TEST(ComparisonPage, HostileNamesAreText) {
  const std::string hostile = "<img src=x onerror=alert(1)>&\"'\xff";
  auto compared = comparison(hostile);
  compared.a.label = hostile;
  compared.scopes[0].changes[0].name = hostile;
  const compare::Gate gate{hostile + ">+1", "", hostile, true, 1};
  const std::string page = comparison_page(compared, {{gate, {hostile}, true}});
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find('\xff'), std::string::npos);
  const std::string escaped = "&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;\xEF\xBF\xBD";
  EXPECT_NE(page.find("<h1>topdown compare: " + escaped + " &rarr; new.json</h1>"), std::string::npos);
  EXPECT_NE(page.find("<h3>" + escaped + "</h3>"), std::string::npos);
  EXPECT_NE(row_of(page, escaped).find("class=\"change not-significant tripped\""), std::string::npos);
}

}  // namespace
}  // namespace topdown::html
