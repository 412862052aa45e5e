#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "common/printable.h"
#include "compare/compare.h"
#include "report/ansi_colors.h"
#include "report/csv.h"

namespace topdown::compare {
namespace {

std::string side_text(const SavedReport& report) {
  const SideRuns side = side_runs(report);
  const std::string what = side.intervals ? "intervals" : "runs";
  return fmt::format("{} ({}, {} {})", printable(report.label), printable(report.model), side.runs,
                     side.runs == 1 ? what.substr(0, what.size() - 1) : what);
}

bool is_profile(const Comparison& comparison) {
  return std::any_of(comparison.scopes.begin(), comparison.scopes.end(),
                     [](const ScopeChanges& scope) { return scope.share.has_value(); });
}

// "24.1% -> 60.3% of the clockticks, +36.2 pt".
std::string share_text(const Change& share) {
  return fmt::format("{} -> {} of the clockticks, {}", value_text(share.a, true), value_text(share.b, true),
                     change_text(share));
}

// "fault_pages [app] (24.1% of the clockticks)" for a scope one side has.
std::string only_text(const SavedReport& side, const std::string& name) {
  const auto scope =
      std::find_if(side.scopes.begin(), side.scopes.end(), [&](const Scope& s) { return s.name == name; });
  if (scope == side.scopes.end() || !scope->share) return printable(name);
  return fmt::format("{} ({} of the clockticks)", printable(name), value_text(scope->share->value, true));
}

std::string moved_functions_text(const Comparison& comparison,
                                 const std::function<std::string(const std::string&, const char*)>& paint) {
  const std::vector<const ScopeChanges*> moved = moved_functions(comparison);
  if (moved.empty()) {
    return fmt::format("\nNo function's share of the clockticks moved ({}).\n",
                       any_judged(comparison) ? "significantly" : "by " + min_change_text(comparison.min_change));
  }
  std::string out =
      "\n" + paint("Functions whose share of the clockticks moved, biggest first:", report::ansi::kBold) + "\n";
  size_t width = 0;
  for (const ScopeChanges* scope : moved) width = std::max(width, printable(scope->scope).size());
  for (const ScopeChanges* scope : moved) {
    const Change& share = *scope->share;
    std::string line = fmt::format("  {:<{}}  {:>6} -> {:>6}  {:>10}  {}", printable(scope->scope), width,
                                   value_text(share.a, true), value_text(share.b, true), change_text(share),
                                   share.judged() ? "(" + p_text(*share.p_value) + ")" : "");
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += paint(line, *share.change > 0 ? report::ansi::kRed : report::ansi::kGreen) + "\n";
  }
  return out;
}

}  // namespace

std::string min_change_text(double min_change) {
  return fmt::format("{:g} point{} (Info metrics: {:g}%)", min_change, min_change == 1 ? "" : "s", min_change);
}

std::string value_text(const std::optional<double>& value, bool fraction) {
  if (!value) return "n/a";
  if (fraction) return fmt::format("{:.1f}%", *value * 100);
  return std::abs(*value) >= 10000 ? fmt::format("{:.0f}", *value) : fmt::format("{:.2f}", *value);
}

std::string change_text(const Change& change) {
  if (!change.change) return "n/a";
  // A drift that rounds to nothing has no sign to show ("-0.0" reads as a fall).
  const double shown = std::abs(*change.change) < 0.05 ? 0.0 : *change.change;
  return change.in_points() ? fmt::format("{:+.1f} pt", shown) : fmt::format("{:+.1f}%", shown);
}

// Below 0.0001 the digits say nothing more (with thousands of intervals p
// underflows to 0).
std::string p_text(double p) { return p < 1e-4 ? "p < 0.0001" : fmt::format("p {:.3g}", p); }

std::string significance_text(const Change& change) {
  if (!change.a || !change.b) return "";
  if (!change.judged()) return "cannot judge";
  return fmt::format("{} ({})", change.significant ? "yes" : "no", p_text(*change.p_value));
}

bool any_judged(const Comparison& comparison) {
  return std::any_of(comparison.scopes.begin(), comparison.scopes.end(), [](const ScopeChanges& scope) {
    return std::any_of(scope.changes.begin(), scope.changes.end(), [](const Change& c) { return c.judged(); });
  });
}

SideRuns side_runs(const SavedReport& report) {
  SideRuns side;
  for (const Scope& scope : report.scopes) {
    side.intervals = side.intervals || scope.from_intervals;
    for (const Measure& measure : scope.measures) side.runs = std::max(side.runs, measure.runs);
  }
  return side;
}

std::vector<Move> significant_moves(const Comparison& comparison) {
  std::vector<Move> moves;
  for (const ScopeChanges& scope : comparison.scopes) {
    for (const Change& change : scope.changes) {
      if (change.significant && change.change) moves.push_back({&scope.scope, &change});
    }
  }
  std::stable_sort(moves.begin(), moves.end(), [](const Move& x, const Move& y) {
    if (x.change->in_points() != y.change->in_points()) return x.change->in_points();
    return std::abs(*x.change->change) > std::abs(*y.change->change);
  });
  return moves;
}

std::string render_text(const Comparison& comparison, const std::vector<GateVerdict>& verdicts,
                        const TextOptions& options) {
  auto paint = [&](const std::string& text, const char* code) {
    return report::ansi::painted(text, code, options.color);
  };
  std::string out = fmt::format(
      "topdown compare: A = {} -> B = {}; Welch's t-test at alpha {}, significant from a change of {}\n",
      side_text(comparison.a), side_text(comparison.b), comparison.alpha, min_change_text(comparison.min_change));
  const bool scoped = comparison.scopes.size() > 1 || !comparison.scopes.front().scope.empty();
  const bool profile = is_profile(comparison);
  if (!any_judged(comparison)) {
    out += profile ? "\nSignificance cannot be judged: a side has a single recording (give several a side, "
                     "A1.data,A2.data B1.data,B2.data); changes are shown as measured.\n"
                   : "\nSignificance cannot be judged: a side has a single run (topdown stat -r N gives several); "
                     "changes are shown as measured.\n";
  } else {
    const std::vector<Move> moves = significant_moves(comparison);
    if (moves.empty()) {
      out += fmt::format("\nNo significant change at alpha {}.\n", comparison.alpha);
    } else {
      out += "\n" + paint("Significant changes, biggest first:", report::ansi::kBold) + "\n";
      size_t width = 0;
      for (const Move& move : moves) width = std::max(width, move.change->name.size() + move.scope->size() + 3);
      for (const Move& move : moves) {
        const std::string name = move.scope->empty() ? move.change->name : *move.scope + ": " + move.change->name;
        out += fmt::format("  {:<{}}  {:>10}  ({})\n", printable(name), width, change_text(*move.change),
                           p_text(*move.change->p_value));
      }
    }
  }
  if (profile) out += moved_functions_text(comparison, paint);

  for (const ScopeChanges& scope : comparison.scopes) {
    if (scoped) out += "\n=== " + printable(scope.scope) + " ===";
    if (scope.share) out += " " + share_text(*scope.share);
    size_t name_width = std::string_view("Info metric").size();
    for (const Change& change : scope.changes) {
      name_width = std::max(name_width, change.name.size() + 2 * static_cast<size_t>(std::max(change.level - 1, 0)));
    }
    auto heading = [&](const char* first) {
      return paint(fmt::format("  {:<{}}  {:>10}  {:>10}  {:>10}  {}", first, name_width, "A", "B", "Change",
                               "Significant"),
                   report::ansi::kBold) +
             "\n";
    };
    auto row = [&](const Change& change) {
      const std::string name =
          std::string(2 * static_cast<size_t>(std::max(change.level - 1, 0)), ' ') + printable(change.name);
      std::string line = fmt::format("  {:<{}}  {:>10}  {:>10}  {:>10}  {}", name, name_width,
                                     value_text(change.a, change.in_points()), value_text(change.b, change.in_points()),
                                     change_text(change), significance_text(change));
      while (!line.empty() && line.back() == ' ') line.pop_back();
      if (change.significant) return paint(line, *change.change > 0 ? report::ansi::kRed : report::ansi::kGreen) + "\n";
      return line + "\n";
    };
    out += "\n" + heading("Node");
    for (const Change& change : scope.changes) {
      if (change.in_points()) out += row(change);
    }
    if (std::any_of(scope.changes.begin(), scope.changes.end(), [](const Change& c) { return !c.in_points(); })) {
      out += "\n" + heading("Info metric");
      for (const Change& change : scope.changes) {
        if (!change.in_points()) out += row(change);
      }
    }
  }
  out += "\nChange: B - A in points of the slots for tree nodes, in percent of A for Info metrics.\n";
  for (const std::string& scope : comparison.only_in_a) out += "only in A: " + only_text(comparison.a, scope) + "\n";
  for (const std::string& scope : comparison.only_in_b) out += "only in B: " + only_text(comparison.b, scope) + "\n";
  for (const GateVerdict& verdict : verdicts) {
    const bool tripped = !verdict.tripped_in.empty();
    std::string where;
    for (const std::string& scope : verdict.tripped_in) where += (where.empty() ? " in " : ", ") + printable(scope);
    out += paint(fmt::format("--fail-if '{}': {}{}", printable(verdict.gate.text), tripped ? "FAILED" : "passed",
                             scoped ? where : ""),
                 tripped ? report::ansi::kRed : report::ansi::kGreen) +
           "\n";
  }
  return out;
}

namespace {

const char* kind_of(const Change& change) { return change.share ? "share" : change.in_points() ? "node" : "info"; }

}  // namespace

std::string render_csv(const Comparison& comparison) {
  std::string out = report::csv_line({"scope", "kind", "name", "level", "parent", "unit", "a", "b", "change",
                                      "change_unit", "a_runs", "b_runs", "p_value", "significant"});
  auto number = [](const std::optional<double>& value) { return value ? fmt::format("{}", *value) : ""; };
  for (const ScopeChanges& scope : comparison.scopes) {
    std::vector<const Change*> rows;
    if (scope.share) rows.push_back(&*scope.share);
    for (const Change& change : scope.changes) rows.push_back(&change);
    for (const Change* row : rows) {
      const Change& change = *row;
      out += report::csv_line({scope.scope, kind_of(change), change.name, std::to_string(change.level), change.parent,
                               change.unit, number(change.a), number(change.b), number(change.change),
                               change.in_points() ? "points" : "percent", std::to_string(change.a_runs),
                               std::to_string(change.b_runs), number(change.p_value),
                               change.judged() ? (change.significant ? "1" : "0") : ""});
    }
  }
  return out;
}

std::string render_json(const Comparison& comparison, const std::vector<GateVerdict>& verdicts) {
  using nlohmann::json;
  auto number = [](const std::optional<double>& value) { return value ? json(*value) : json(); };
  auto side = [](const SavedReport& report) {
    return json{{"source", report.label}, {"model", report.model}, {"scopes", report.scopes.size()}};
  };
  auto change_json = [&](const Change& change) {
    return json{{"name", change.name},
                {"kind", kind_of(change)},
                {"level", change.level},
                {"parent", change.parent.empty() ? json() : json(change.parent)},
                {"unit", change.unit},
                {"a", number(change.a)},
                {"b", number(change.b)},
                {"change", number(change.change)},
                {"change_unit", change.in_points() ? "points" : "percent"},
                {"a_runs", change.a_runs},
                {"b_runs", change.b_runs},
                {"p_value", number(change.p_value)},
                {"significant", change.judged() ? json(change.significant) : json()}};
  };
  json scopes = json::array();
  for (const ScopeChanges& scope : comparison.scopes) {
    json changes = json::array();
    for (const Change& change : scope.changes) changes.push_back(change_json(change));
    json out = {{"scope", scope.scope}, {"changes", std::move(changes)}};
    if (scope.share) {
      out["function"] = scope.function;
      out["module"] = scope.module;
      out["share"] = change_json(*scope.share);
      out["share"]["moved"] = scope.share->moved(comparison.min_change);
    }
    scopes.push_back(std::move(out));
  }
  json gates = json::array();
  for (const GateVerdict& verdict : verdicts) {
    gates.push_back(
        {{"gate", verdict.gate.text}, {"tripped", !verdict.tripped_in.empty()}, {"scopes", verdict.tripped_in}});
  }
  const json out = {{"format", "topdown-compare-1"},
                    {"a", side(comparison.a)},
                    {"b", side(comparison.b)},
                    {"alpha", comparison.alpha},
                    {"min_change", comparison.min_change},
                    {"scopes", std::move(scopes)},
                    {"only_in_a", comparison.only_in_a},
                    {"only_in_b", comparison.only_in_b},
                    {"gates", std::move(gates)}};
  return out.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace topdown::compare
