#include "html/comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "html/draw.h"
#include "html/escape.h"

namespace topdown::html {
namespace {

using compare::Change;
using compare::Comparison;
using compare::GateVerdict;
using compare::ScopeChanges;

// Beyond this, scopes are listed as compared but not drawn: a page of a
// hundred functions' tables is not read.
constexpr size_t kMaxScopes = 64;
// The summary lists the biggest significant changes; the tables have all.
constexpr size_t kMaxListed = 20;
// The least end of the change bars' scale (a drift of 0.3 points must not
// fill the bar), and the most for Info metrics (whose changes reach
// thousands of percent: a halving must still show).
constexpr double kLeastPointScale = 5;
constexpr double kLeastPercentScale = 10;
constexpr double kMostPercentScale = 100;

constexpr std::string_view kStyle = R"(
.gates{margin:0;padding-left:18px}li.tripped{color:#b00;font-weight:bold}li.passed{color:#2a7a2a}
table.changes{border-collapse:collapse;font-size:13px;margin:4px 0 16px}
table.changes td,table.changes th{padding:2px 8px;text-align:left;vertical-align:middle}
table.changes td.a,table.changes td.b,table.changes td.change{text-align:right;font-variant-numeric:tabular-nums;
white-space:nowrap}table.changes td.bar{padding:0 8px;line-height:0}
tr.significant{font-weight:bold;background:#fff3c4}tr.not-significant td.change{color:#666}
tr.unjudged td.significance{color:#8a6d00;font-style:italic}
tr.tripped{background:#fde2e2;box-shadow:inset 4px 0 #c00}span.gate{color:#b00;font-weight:bold;margin-left:6px}
svg.level1{max-width:1000px;display:block;margin:4px 0 12px}ol.moves{margin:0;padding-left:24px}
ol.moved-functions{margin:0;padding-left:24px}p.share{font-weight:bold}p.share[data-moved="true"]{color:#b00}
svg.diff-flame{max-width:1200px;display:block}svg.diff-flame rect{stroke:#fff;stroke-width:0.5}
svg.diff-flame g.new rect{stroke:#333;stroke-dasharray:3 2}ul.gone{font-size:13px}
)";

// The scope selector's script.
constexpr std::string_view kScript = R"JS(
(function () {
  'use strict';
  var chooser = document.getElementById('scope-choice');
  if (!chooser) return;
  chooser.addEventListener('change', function () {
    document.querySelectorAll('div.scope').forEach(function (scope) { scope.hidden = scope.dataset.index !== chooser.value; });
  });
})();
)JS";

std::string definition(std::string_view term, const std::string& html) {
  return fmt::format("<dt>{}</dt><dd>{}</dd>", term, html);
}

std::string side_words(const compare::SavedReport& report) {
  const compare::SideRuns side = compare::side_runs(report);
  return fmt::format("{}, {} {}{}", report.label, side.runs, side.intervals ? "interval" : "run",
                     side.runs == 1 ? "" : "s");
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

bool scoped(const Comparison& comparison) {
  return comparison.scopes.size() > 1 || !comparison.scopes.front().scope.empty();
}

std::string header(const Comparison& comparison, const std::vector<GateVerdict>& verdicts) {
  std::string out = fmt::format("<header><h1>topdown compare: {} &rarr; {}</h1><dl class=\"run\">",
                                escape(comparison.a.label), escape(comparison.b.label));
  out += definition("A (before)", escape(side_words(comparison.a)));
  out += definition("B (after)", escape(side_words(comparison.b)));
  out += definition("model", escape(fmt::format("{}, to level {}", comparison.a.model, comparison.a.deepest_level)));
  std::string test = fmt::format(
      "Welch's t-test (two-sided) at alpha {:g}; significant when p &lt; {:g} and the change is at least {}",
      comparison.alpha, comparison.alpha, escape(compare::min_change_text(comparison.min_change)));
  if (!compare::any_judged(comparison)) {
    test += ". Here a side has a single run: changes cannot be judged and are shown as measured.";
  }
  out += definition("significance", test);
  if (!verdicts.empty()) {
    std::string gates = "<ul class=\"gates\">";
    for (const GateVerdict& verdict : verdicts) {
      const bool tripped = !verdict.tripped_in.empty();
      std::string where = tripped && scoped(comparison) ? " in " + listed(verdict.tripped_in) : "";
      gates += fmt::format(R"(<li class="gate {}" data-gate="{}">--fail-if '{}': {}{}</li>)",
                           tripped ? "tripped" : "passed", escape(verdict.gate.text), escape(verdict.gate.text),
                           tripped ? "FAILED" : "passed", escape(where));
    }
    out += definition("gates", gates + "</ul>");
  }
  if (!comparison.only_in_a.empty()) out += definition("only in A", escape(listed(comparison.only_in_a)));
  if (!comparison.only_in_b.empty()) out += definition("only in B", escape(listed(comparison.only_in_b)));
  return out + "</dl></header>";
}

// "60.0% -> 20.0% of the clockticks, -40.0 pt (p 0.003)".
std::string share_words(const Change& share) {
  return fmt::format("{} &rarr; {} of the clockticks, {}{}", escape(compare::value_text(share.a, true)),
                     escape(compare::value_text(share.b, true)), escape(compare::change_text(share)),
                     share.p_value ? " (" + escape(compare::p_text(*share.p_value)) + ")" : "");
}

// A comparison of profiles: the functions whose share of the clockticks moved.
std::string moved_functions_list(const Comparison& comparison) {
  const bool profiles = std::any_of(comparison.scopes.begin(), comparison.scopes.end(),
                                    [](const ScopeChanges& scope) { return scope.share.has_value(); });
  if (!profiles) return "";
  const std::vector<const ScopeChanges*> moved = compare::moved_functions(comparison);
  std::string out = "<h2>Functions whose share of the clockticks moved</h2>";
  if (moved.empty()) return out + "<p>None moved.</p>";
  out += "<ol class=\"moved-functions\">";
  for (size_t i = 0; i < moved.size() && i < kMaxListed; ++i) {
    out += fmt::format(R"(<li data-scope="{}" data-change="{:.4f}">{}: <b>{}</b></li>)", escape(moved[i]->scope),
                       *moved[i]->share->change, escape(moved[i]->scope), share_words(*moved[i]->share));
  }
  return out + "</ol>";
}

std::string summary(const Comparison& comparison) {
  std::string out = "<section id=\"summary\">" + moved_functions_list(comparison) + "<h2>Significant changes</h2>";
  if (!compare::any_judged(comparison)) {
    return out +
           "<p class=\"note\">Significance cannot be judged: a side has a single run or recording (topdown stat -r N "
           "gives several runs; compare A1,A2 B1,B2 takes several recordings); changes are shown as measured.</p>"
           "</section>";
  }
  const std::vector<compare::Move> moves = compare::significant_moves(comparison);
  if (moves.empty()) {
    return out + fmt::format("<p>No significant change at alpha {:g}.</p></section>", comparison.alpha);
  }
  out += "<ol class=\"moves\">";
  for (size_t i = 0; i < moves.size() && i < kMaxListed; ++i) {
    const compare::Move& move = moves[i];
    const std::string name = move.scope->empty() ? move.change->name : *move.scope + ": " + move.change->name;
    out += fmt::format(R"(<li data-node="{}" data-scope="{}">{} <b>{}</b> ({})</li>)", escape(move.change->name),
                       escape(*move.scope), escape(name), escape(compare::change_text(*move.change)),
                       escape(compare::p_text(*move.change->p_value)));
  }
  out += "</ol>";
  if (moves.size() > kMaxListed) {
    out += fmt::format(R"(<p class="note">The biggest {} of {} significant changes; the tables below have all.</p>)",
                       kMaxListed, moves.size());
  }
  return out + "</section>";
}

// significant, not-significant, unjudged (a single run on a side) or na
// (no change: a side lacks the value, or A is 0 for a percent).
std::string_view state_of(const Change& change) {
  if (!change.change) return "na";
  if (!change.judged()) return "unjudged";
  return change.significant ? "significant" : "not-significant";
}

std::string side_tooltip(std::string_view side, const std::optional<double>& value, int runs, bool fraction) {
  if (runs == 0) return fmt::format("\n{}: absent", side);
  return fmt::format("\n{}: {} ({} measurement{})", side, compare::value_text(value, fraction), runs,
                     runs == 1 ? "" : "s");
}

std::string tooltip(const Change& change, const Comparison& comparison, const std::vector<std::string>& gates) {
  std::string text = change.name;
  text += side_tooltip("A", change.a, change.a_runs, change.in_points());
  text += side_tooltip("B", change.b, change.b_runs, change.in_points());
  text += "\nchange: " + compare::change_text(change) +
          (change.in_points() ? " (B - A, points of the slots)" : " (B - A, percent of A)");
  if (change.p_value) {
    text += fmt::format("\nWelch's t-test: p = {:.3g}: ", *change.p_value);
    if (change.significant) {
      text += "significant";
    } else if (*change.p_value >= comparison.alpha) {
      text += fmt::format("not significant (p >= {:g})", comparison.alpha);
    } else {
      text += "not significant (a change under " + compare::min_change_text(comparison.min_change) + ")";
    }
  } else if (change.a && change.b) {
    text += "\ncannot judge: a side has a single run";
  }
  for (const auto& gate : gates) text += "\n--fail-if '" + gate + "' tripped";
  return text;
}

// The gates that tripped on this change in this scope.
std::vector<std::string> tripped_gates(const Change& change, const std::string& scope,
                                       const std::vector<GateVerdict>& verdicts) {
  std::vector<std::string> gates;
  for (const GateVerdict& verdict : verdicts) {
    if (verdict.gate.name == change.name &&
        std::find(verdict.tripped_in.begin(), verdict.tripped_in.end(), scope) != verdict.tripped_in.end()) {
      gates.push_back(verdict.gate.text);
    }
  }
  return gates;
}

std::string change_row(const Change& change, const std::string& scope, const Comparison& comparison,
                       const std::vector<GateVerdict>& verdicts, double scale) {
  const std::vector<std::string> gates = tripped_gates(change, scope, verdicts);
  std::string significance = escape(compare::significance_text(change));
  for (const auto& gate : gates) significance += "<span class=\"gate\">gate '" + escape(gate) + "' tripped</span>";
  const int indent = 8 + 14 * std::max(change.level - 1, 0);
  return fmt::format(
      R"(<tr class="change {0}{1}" data-node="{2}" data-state="{0}" title="{3}"><td class="name" )"
      R"(style="padding-left:{4}px">{2}</td><td class="a">{5}</td><td class="b">{6}</td><td class="bar">{7}</td>)"
      R"(<td class="change">{8}</td><td class="significance">{9}</td></tr>)",
      state_of(change), gates.empty() ? "" : " tripped", escape(change.name),
      escape(tooltip(change, comparison, gates)), indent, escape(compare::value_text(change.a, change.in_points())),
      escape(compare::value_text(change.b, change.in_points())), change_bar_svg(change, scale),
      escape(compare::change_text(change)), significance);
}

// The tree nodes (`points`) or the Info metrics of one scope.
std::string changes_table(const ScopeChanges& scope, bool points, const Comparison& comparison,
                          const std::vector<GateVerdict>& verdicts) {
  double largest = 0;
  for (const Change& change : scope.changes) {
    if (change.in_points() == points && change.change) largest = std::max(largest, std::abs(*change.change));
  }
  const double scale = points ? bar_scale(largest, kLeastPointScale)
                              : bar_scale(std::min(largest, kMostPercentScale), kLeastPercentScale);
  std::string rows;
  for (const Change& change : scope.changes) {
    if (change.in_points() == points) rows += change_row(change, scope.scope, comparison, verdicts, scale);
  }
  if (rows.empty()) return "";
  return fmt::format(
      R"(<table class="changes" data-kind="{}"><thead><tr><th>{}</th><th>A</th><th>B</th><th>change, bar to )"
      R"(&plusmn;{:g}{}</th><th>change</th><th>significant</th></tr></thead><tbody>{}</tbody></table>)",
      points ? "node" : "info", points ? "node" : "Info metric", scale, points ? " pt" : "%", rows);
}

std::string scopes_section(const Comparison& comparison, const std::vector<GateVerdict>& verdicts) {
  std::string out =
      "<section id=\"changes\"><h2>Changes</h2><p class=\"legend\">" + area_legend() +
      "<span>bold, yellow: significant</span><span>faded bar: not significant</span><span>dashed bar: cannot "
      "judge (a single run)</span><span>red: a gate tripped</span></p><p class=\"note\">Change: B - A in points "
      "of the slots for tree nodes, in percent of A for Info metrics; hover a row for its p-value.</p>";
  const std::vector<ScopeChanges>& scopes = comparison.scopes;
  if (scoped(comparison)) {
    std::vector<std::string> names;
    for (const ScopeChanges& scope : scopes) names.push_back(scope.scope);
    out += choice_of("scope-choice", "scope", names, kMaxScopes);
  }
  for (size_t i = 0; i < scopes.size() && i < kMaxScopes; ++i) {
    const ScopeChanges& scope = scopes[i];
    out += fmt::format(R"(<div class="scope" data-index="{}" data-scope="{}"{}>)", i, escape(scope.scope),
                       i > 0 ? " hidden" : "");
    if (!scope.scope.empty()) out += "<h3>" + escape(scope.scope) + "</h3>";
    if (scope.share) {
      out += fmt::format(R"(<p class="share" data-moved="{}">{}</p>)", scope.share->moved(comparison.min_change),
                         share_words(*scope.share));
    }
    out += level1_bars_svg(scope) + changes_table(scope, true, comparison, verdicts) +
           changes_table(scope, false, comparison, verdicts) + "</div>";
  }
  return out + "</section>";
}

}  // namespace

std::string comparison_page(const Comparison& comparison, const std::vector<GateVerdict>& verdicts,
                            const FlameDiff* flame) {
  std::string out =
      page_start(fmt::format("topdown compare: {} -> {}", comparison.a.label, comparison.b.label), kStyle);
  out += header(comparison, verdicts) + summary(comparison) + scopes_section(comparison, verdicts);
  if (flame) out += diff_flame_section(*flame);
  return out + "<script>" + std::string(kScript) + "</script></body></html>\n";
}

}  // namespace topdown::html
