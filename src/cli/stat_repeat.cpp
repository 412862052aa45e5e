// stat -r N: the same plans counted N times, reported as the runs' means.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "cli/core_type_record.h"
#include "cli/evaluation_options.h"
#include "cli/html_output.h"
#include "cli/output.h"
#include "cli/render.h"
#include "cli/stat_run.h"
#include "eval/evaluate.h"
#include "report/report.h"
#include "settings/hybrid.h"
#include "settings/stat.h"

namespace topdown::cli {
namespace {

// What every run shares: its time and how it ended.
struct Series {
  std::vector<double> elapsed_s;
  int exit_code = 0;  // the first non-zero one
  std::optional<int> signal;
};

// One tree counted N times: the one model's, or a hybrid CPU's core type's.
struct RepeatedTree {
  const CoreTypePlan* type;
  std::string pmu;  // its events are named pmu/EVENT/ (settings::core_type_groups); empty: the one tree's
  std::vector<collect::CounterGroup> groups;
  eval::Evaluator evaluator;
  std::vector<eval::Evaluation> evaluations;
  counts::Sample total;  // every run's counts added up: the report's events and marks
  bool ran = false;      // the command ran on the type in some run
};

std::string series_note(const StatOptions& options, const Series& series, size_t runs_a_time, bool hybrid) {
  const auto [shortest, longest] = std::minmax_element(series.elapsed_s.begin(), series.elapsed_s.end());
  const size_t runs = series.elapsed_s.size();
  std::string note =
      fmt::format("the command ran {} {} ({:.2f}-{:.2f} s)", runs, runs == 1 ? "time" : "times", *shortest, *longest);
  if (options.no_multiplex && hybrid) {
    note += fmt::format(", in {} runs each time, each with one counter group of each core type", runs_a_time);
  } else if (options.no_multiplex) {
    note += fmt::format(", each of the {} counter groups in a run of its own each time", runs_a_time);
  }
  if (series.elapsed_s.size() < static_cast<size_t>(options.repeat)) {
    note +=
        fmt::format("; stopped after {} of {} runs by {}", runs, options.repeat, report::signal_name(*series.signal));
  }
  return note;
}

std::vector<RepeatedTree> repeated_trees(const StatOptions& options, const cpu::CpuInfo& cpu,
                                         const std::vector<CoreTypePlan>& types, bool hybrid,
                                         const collect::Target& target) {
  std::vector<RepeatedTree> trees;
  const auto add = [&](const CoreTypePlan& type, std::string pmu, std::vector<collect::CounterGroup> groups) {
    trees.push_back({&type,
                     std::move(pmu),
                     std::move(groups),
                     eval::Evaluator(type.model, type.plan.nodes, evaluation_options(type.plan, type.vars)),
                     {},
                     {},
                     false});
  };
  if (!hybrid) {
    add(types.front(), "", settings::counted_groups(types.front().plan, options.per, target).groups);
    return trees;
  }
  for (settings::PlacedCoreType& placed : settings::place_core_types(cpu, types, options.per, target).types) {
    add(*placed.type, placed.placement.pmu, std::move(placed.groups));
  }
  return trees;
}

report::Report summary_of(const StatOptions& options, RepeatedTree& tree, const Series& series,
                          const std::string& note) {
  eval::Evaluation summary = eval::summarize_runs(tree.evaluator, tree.evaluations, tree.total);
  summary.warnings.push_back(note);
  report::RunInfo run;
  run.describe_model(tree.type->model);
  run.command = options.command;
  run.groups = static_cast<int>(tree.type->plan.groups.size());
  run.multiplexed = tree.type->plan.multiplexed() && !options.no_multiplex;
  run.extra_events = options.extra_events;
  run.elapsed_s = std::accumulate(series.elapsed_s.begin(), series.elapsed_s.end(), 0.0) /
                  static_cast<double>(series.elapsed_s.size());
  run.exit_code = series.exit_code;
  run.signal = series.signal;
  tree.total.duration_s = run.elapsed_s;
  return {"", std::move(summary), std::move(tree.total), std::move(run)};
}

}  // namespace

int count_repeated(const StatOptions& options, const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types,
                   bool hybrid) {
  settings::check_repeat_options(options);
  const collect::Target target = settings::stat_target(options);
  std::vector<RepeatedTree> trees = repeated_trees(options, cpu, types, hybrid, target);
  std::vector<const model::Model*> models;
  std::vector<model::RunVariables> vars;
  for (const RepeatedTree& tree : trees) {
    models.push_back(&tree.type->model);
    vars.push_back(tree.type->vars);
  }
  HtmlOutput html(options.report, models, counting_words(options));  // checks the page's directory before the runs
  std::vector<collect::CounterGroup> groups;
  std::vector<std::vector<collect::CounterGroup>> groups_by_type;
  for (const RepeatedTree& tree : trees) {
    groups.insert(groups.end(), tree.groups.begin(), tree.groups.end());
    groups_by_type.push_back(tree.groups);
  }
  const std::vector<std::vector<collect::CounterGroup>> runs = settings::side_by_side_runs(groups_by_type);
  const collect::Options how = collect_options(options);

  Series series;
  std::vector<std::string> ignored_notes;  // the series' own note says how it ran
  for (int run = 0; run < options.repeat && !series.signal; ++run) {
    const collect::WorkloadResult result = options.no_multiplex ? count_once_each(target, runs, how, ignored_notes)
                                                                : collect::collect(target, groups, how, {});
    for (RepeatedTree& tree : trees) {
      const counts::Sample sample =
          tree.pmu.empty() ? result.sample : settings::core_type_counts(result.sample, tree.pmu);
      tree.evaluations.push_back(tree.evaluator.evaluate(sample));
      for (const auto& [key, count] : sample.events) tree.total.add(key, count);
      tree.ran = tree.ran || counted_anything(sample);
    }
    series.elapsed_s.push_back(result.elapsed_s);
    if (series.exit_code == 0) series.exit_code = result.exit_code;
    series.signal = result.signal;
  }

  const std::string note = series_note(options, series, runs.size(), hybrid);
  std::vector<report::Report> reports;
  if (hybrid) {
    // Each core type the command ran on (all of them, n/a, if it ran on
    // none; the columns view keeps every type).
    const bool ran_anywhere = std::any_of(trees.begin(), trees.end(), [](const auto& tree) { return tree.ran; });
    CoreTypeRecord record(ran_anywhere, options.report.columns);
    for (RepeatedTree& tree : trees) {
      if (!record.shows(tree.ran)) continue;
      record.add({summary_of(options, tree, series, note)}, tree.type->model, tree.ran);
    }
    reports = record.take(true);
  } else {
    reports.push_back(summary_of(options, trees.front(), series, note));
  }

  ReportSink sink(options.report.output);
  report::Layout layout = report_layout(options.report, false, false);
  layout.core_typed = hybrid;
  report::ReportWriter writer(layout);
  sink.write(writer.write(std::nullopt, reports));
  html.add(std::nullopt, reports);
  sink.commit();
  html.commit(vars);
  return series.exit_code;
}

}  // namespace topdown::cli
