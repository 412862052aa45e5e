#include "compare/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "common/error.h"
#include "common/strings.h"
#include "stats/stats.h"

namespace topdown::compare {
namespace {

stats::Summary summary_of(const Measure& measure) {
  stats::Summary summary;
  summary.n = measure.runs;
  summary.mean = measure.value.value_or(0);
  summary.stddev = measure.stddev;
  return summary;
}

Change change_of(const Measure* a, const Measure* b, double alpha, double min_change) {
  const Measure& known = a ? *a : *b;
  Change change;
  change.name = known.name;
  change.parent = known.parent;
  change.level = known.level;
  change.unit = known.unit;
  change.area = known.area;
  change.share = known.share;
  if (a) {
    change.a = a->value;
    change.a_runs = a->runs;
  }
  if (b) {
    change.b = b->value;
    change.b_runs = b->runs;
  }
  if (!change.a || !change.b) return change;
  if (change.in_points()) {
    change.change = (*change.b - *change.a) * 100;
  } else if (*change.a != 0) {
    change.change = (*change.b - *change.a) / std::abs(*change.a) * 100;
    // From a value next to 0 a change can be too large for a double: n/a, not infinite.
    if (!std::isfinite(*change.change)) change.change.reset();
  }
  if (const auto test = stats::welch_test(summary_of(*a), summary_of(*b))) {
    change.p_value = test->p;
    change.significant = test->p < alpha && change.change && std::abs(*change.change) >= min_change;
  }
  return change;
}

ScopeChanges changes_of(const Scope& a, const Scope& b, double alpha, double min_change) {
  ScopeChanges scope;
  scope.scope = a.name;
  std::map<std::string_view, const Measure*> in_b;
  for (const Measure& measure : b.measures) in_b.emplace(measure.name, &measure);
  for (const Measure& measure : a.measures) {
    const auto found = in_b.find(measure.name);
    scope.changes.push_back(change_of(&measure, found == in_b.end() ? nullptr : found->second, alpha, min_change));
    if (found != in_b.end()) in_b.erase(found);
  }
  for (const Measure& measure : b.measures) {
    if (in_b.count(measure.name)) scope.changes.push_back(change_of(nullptr, &measure, alpha, min_change));
  }
  scope.function = a.function.empty() ? b.function : a.function;
  scope.module = a.module.empty() ? b.module : a.module;
  if (a.share && b.share) scope.share = change_of(&*a.share, &*b.share, alpha, min_change);
  return scope;
}

// The function's name without its parameter list ("f(int) const": "f").
std::string_view without_parameters(std::string_view function) {
  const size_t open = function.find('(');
  return open == std::string_view::npos || open == 0 ? function : function.substr(0, open);
}

}  // namespace

bool Change::moved(double min_change) const {
  if (!change) return false;
  return judged() ? significant : std::abs(*change) >= min_change;
}

bool names_function(const std::string& function, const std::string& wanted) {
  if (function == wanted) return true;
  const std::string_view name = without_parameters(function);
  if (name == wanted) return true;
  const size_t scope = name.rfind("::");
  return scope != std::string_view::npos && name.substr(scope + 2) == wanted;
}

std::vector<const ScopeChanges*> moved_functions(const Comparison& comparison) {
  std::vector<const ScopeChanges*> moved;
  for (const ScopeChanges& scope : comparison.scopes) {
    if (scope.share && scope.share->moved(comparison.min_change)) moved.push_back(&scope);
  }
  std::stable_sort(moved.begin(), moved.end(), [](const ScopeChanges* x, const ScopeChanges* y) {
    return std::abs(*x->share->change) > std::abs(*y->share->change);
  });
  return moved;
}

Comparison compare(SavedReport a, SavedReport b, double alpha, double min_change) {
  if (a.model != b.model) {
    throw Error(fmt::format("{} is a report of model {} and {} of model {}: compare reports of one model", a.label,
                            a.model, b.label, b.model));
  }
  // A new TMA version moves, adds and renames nodes (5.2 puts MEM_Bandwidth
  // under L3_Miss_Bound): its changes would read as the program's.
  if (!a.tma_version.empty() && !b.tma_version.empty() && a.tma_version != b.tma_version) {
    throw Error(
        fmt::format("{} is a report of TMA {} and {} of TMA {}: the versions place nodes differently; "
                    "measure both with one version, pinned with --cpu {}@{} (or {}@{})",
                    a.label, a.tma_version, b.label, b.tma_version, a.model, a.tma_version, a.model, b.tma_version));
  }
  if (a.deepest_level != b.deepest_level) {
    throw Error(fmt::format("{} goes to level {} and {} to level {}: make both with the same -l", a.label,
                            a.deepest_level, b.label, b.deepest_level));
  }
  Comparison comparison;
  comparison.alpha = alpha;
  comparison.min_change = min_change;
  std::map<std::string_view, const Scope*> b_scopes;
  for (const Scope& scope : b.scopes) b_scopes.emplace(scope.name, &scope);
  for (const Scope& scope : a.scopes) {
    const auto found = b_scopes.find(scope.name);
    if (found == b_scopes.end()) {
      comparison.only_in_a.push_back(scope.name);
      continue;
    }
    comparison.scopes.push_back(changes_of(scope, *found->second, alpha, min_change));
    b_scopes.erase(found);
  }
  for (const Scope& scope : b.scopes) {
    if (b_scopes.count(scope.name)) comparison.only_in_b.push_back(scope.name);
  }
  if (comparison.scopes.empty()) {
    throw Error(fmt::format(
        "{} and {} have no scope in common (units or functions of one are not in the other): compare reports of "
        "the same kind",
        a.label, b.label));
  }
  comparison.a = std::move(a);
  comparison.b = std::move(b);
  return comparison;
}

Gate parse_gate(const std::string& text) {
  const auto refuse = [&] {
    return Error(fmt::format(
        "--fail-if '{}': expected NODE>+LIMIT or NODE<-LIMIT (points for tree nodes, percent for Info metrics), "
        "for example 'Backend_Bound>+2', or FUNCTION:NODE>+LIMIT for a function of a profile",
        text));
  };
  const size_t op = text.find_first_of("<>");
  if (op == std::string::npos) throw refuse();
  Gate gate;
  gate.text = text;
  // Node names have no ':'; function names may ("ns::f:Backend_Bound").
  const std::string_view target = trim(std::string_view(text).substr(0, op));
  const size_t colon = target.rfind(':');
  gate.name = std::string(colon == std::string_view::npos ? target : trim(target.substr(colon + 1)));
  if (colon != std::string_view::npos) {
    gate.function = std::string(trim(target.substr(0, colon)));
    if (gate.function.empty()) throw refuse();
  }
  gate.above = text[op] == '>';
  std::string_view limit = trim(std::string_view(text).substr(op + 1));
  if (!limit.empty() && limit[0] == '+') limit.remove_prefix(1);
  const auto [end, error] = std::from_chars(limit.data(), limit.data() + limit.size(), gate.limit);
  if (gate.name.empty() || limit.empty() || error != std::errc() || end != limit.data() + limit.size() ||
      !std::isfinite(gate.limit)) {
    throw refuse();
  }
  return gate;
}

std::vector<GateVerdict> check_gates(const Comparison& comparison, const std::vector<Gate>& gates) {
  std::vector<GateVerdict> verdicts;
  for (const Gate& gate : gates) {
    GateVerdict verdict{gate, {}, false};
    bool function_found = gate.function.empty();
    for (const ScopeChanges& scope : comparison.scopes) {
      if (!gate.function.empty() && !names_function(scope.function, gate.function)) continue;
      function_found = true;
      for (const Change& change : scope.changes) {
        if (change.name != gate.name) continue;
        verdict.found = true;
        if (!change.change) continue;
        const bool past = gate.above ? *change.change > gate.limit : *change.change < gate.limit;
        // With a single run on a side there is no telling noise from change: the limit and the floor decide.
        if (past && change.moved(comparison.min_change)) verdict.tripped_in.push_back(scope.scope);
      }
    }
    if (!function_found) {
      throw Error(fmt::format(
          "--fail-if '{}' names the function {}, which the two profiles do not have in common; give its name as "
          "the reports show it, with or without its parameters and namespaces",
          gate.text, gate.function));
    }
    if (!verdict.found) {
      throw Error(fmt::format("--fail-if '{}' names {}, which neither report has (`topdown list` names the nodes)",
                              gate.text, gate.name));
    }
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

}  // namespace topdown::compare
