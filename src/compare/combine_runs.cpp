// Several single-run reports of one side as one report of repeated runs.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/error.h"
#include "common/strings.h"
#include "compare/compare.h"
#include "stats/stats.h"

namespace topdown::compare {
namespace {

// One measure's values over the runs that have it.
struct Values {
  Measure first;  // names and kind, as the first run that has it gives them
  std::vector<double> values;
};

// A scope's measures over the runs, in the order the runs first name them.
struct ScopeValues {
  Scope first;
  std::vector<Values> measures;
  std::map<std::string, size_t, std::less<>> index;
  std::optional<Values> share;

  void add(const Measure& measure) {
    auto [at, inserted] = index.try_emplace(measure.name, measures.size());
    if (inserted) measures.push_back({measure, {}});
    if (measure.value) measures[at->second].values.push_back(*measure.value);
  }
};

Measure combined(const Values& values) {
  Measure measure = values.first;
  const stats::Summary summary = stats::summarize(values.values);
  measure.runs = std::max(summary.n, 1);
  measure.value = summary.n > 0 ? std::optional<double>(summary.mean) : std::nullopt;
  measure.stddev = summary.stddev;
  return measure;
}

void refuse_repeated(const SavedReport& run) {
  for (const Scope& scope : run.scopes) {
    const bool repeated = scope.from_intervals || std::any_of(scope.measures.begin(), scope.measures.end(),
                                                              [](const Measure& m) { return m.runs > 1; });
    if (repeated) {
      throw Error(fmt::format("{} holds {} already: give it alone on its side, or give one file per run (A1,A2 B1,B2)",
                              run.label, scope.from_intervals ? "intervals" : "the means of repeated runs"));
    }
  }
}

}  // namespace

SavedReport combine_runs(std::vector<SavedReport> runs) {
  if (runs.size() == 1) return std::move(runs.front());
  std::vector<std::string> labels;
  std::vector<ScopeValues> scopes;
  std::map<std::string, size_t, std::less<>> scope_index;
  for (const SavedReport& run : runs) {
    refuse_repeated(run);
    const SavedReport& first = runs.front();
    if (run.model != first.model || run.deepest_level != first.deepest_level) {
      throw Error(
          fmt::format("{} and {} are runs of one side but of model {} and {} to levels {} and {}: give one "
                      "side runs of one model and -l",
                      first.label, run.label, first.model, run.model, first.deepest_level, run.deepest_level));
    }
    labels.push_back(run.label);
    for (const Scope& scope : run.scopes) {
      auto [at, inserted] = scope_index.try_emplace(scope.name, scopes.size());
      if (inserted) scopes.push_back({scope, {}, {}, {}});
      ScopeValues& values = scopes[at->second];
      for (const Measure& measure : scope.measures) values.add(measure);
      if (scope.share) {
        if (!values.share) values.share = Values{*scope.share, {}};
        if (scope.share->value) values.share->values.push_back(*scope.share->value);
      }
    }
  }
  SavedReport out;
  out.label = join(labels, ",");
  out.model = runs.front().model;
  out.deepest_level = runs.front().deepest_level;
  for (ScopeValues& values : scopes) {
    Scope scope = std::move(values.first);
    scope.measures.clear();
    for (const Values& measure : values.measures) scope.measures.push_back(combined(measure));
    scope.share.reset();
    if (values.share) scope.share = combined(*values.share);
    out.scopes.push_back(std::move(scope));
  }
  return out;
}

}  // namespace topdown::compare
