// stat -r N: the same plan counted N times, reported as the runs' means.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "cli/output.h"
#include "cli/render.h"
#include "cli/stat_run.h"
#include "eval/evaluate.h"
#include "report/report.h"
#include "settings/stat.h"

namespace topdown::cli {
namespace {

struct Series {
  std::vector<eval::Evaluation> evaluations;
  counts::Sample total;  // every run's counts added up: the report's events and marks
  std::vector<double> elapsed_s;
  int exit_code = 0;  // the first non-zero one
  std::optional<int> signal;
};

std::string series_note(const StatOptions& options, const Series& series, size_t groups) {
  const auto [shortest, longest] = std::minmax_element(series.elapsed_s.begin(), series.elapsed_s.end());
  const size_t runs = series.elapsed_s.size();
  std::string note =
      fmt::format("the command ran {} {} ({:.2f}-{:.2f} s)", runs, runs == 1 ? "time" : "times", *shortest, *longest);
  if (options.no_multiplex)
    note += fmt::format(", each of the {} counter groups in a run of its own each time", groups);
  if (series.elapsed_s.size() < static_cast<size_t>(options.repeat)) {
    note +=
        fmt::format("; stopped after {} of {} runs by {}", runs, options.repeat, report::signal_name(*series.signal));
  }
  return note;
}

}  // namespace

int count_repeated(const StatOptions& options, const Context& context, const schedule::Plan& plan,
                   const model::RunVariables& vars) {
  settings::check_repeat_options(options);
  const collect::Target target = settings::stat_target(options);
  const settings::CountedGroups counted = settings::counted_groups(plan, options.per, target);
  eval::Options evaluation_options;
  evaluation_options.vars = vars;
  evaluation_options.identities = plan.identities;
  evaluation_options.node_groups = plan.node_groups;
  const eval::Evaluator evaluator(context.model, plan.nodes, evaluation_options);
  const collect::Options how = collect_options(options);

  Series series;
  for (int run = 0; run < options.repeat && !series.signal; ++run) {
    collect::WorkloadResult result = options.no_multiplex
                                         ? collect::run_once_per_group(target, counted.groups, how).result
                                         : collect::collect(target, counted.groups, how, {});
    series.evaluations.push_back(evaluator.evaluate(result.sample));
    for (const auto& [key, count] : result.sample.events) series.total.add(key, count);
    series.elapsed_s.push_back(result.elapsed_s);
    if (series.exit_code == 0) series.exit_code = result.exit_code;
    series.signal = result.signal;
  }

  eval::Evaluation summary = eval::summarize_runs(evaluator, series.evaluations, series.total);
  summary.warnings.push_back(series_note(options, series, counted.groups.size()));
  report::RunInfo run;
  run.model_name = context.model.name;
  run.model_title = context.model.title;
  run.command = options.command;
  run.groups = static_cast<int>(plan.groups.size());
  run.multiplexed = plan.multiplexed() && !options.no_multiplex;
  run.extra_events = options.extra_events;
  run.elapsed_s = std::accumulate(series.elapsed_s.begin(), series.elapsed_s.end(), 0.0) /
                  static_cast<double>(series.elapsed_s.size());
  run.exit_code = series.exit_code;
  run.signal = series.signal;
  series.total.duration_s = run.elapsed_s;

  ReportSink sink(options.report.output);
  report::ReportWriter writer(report_layout(options.report, false, false));
  sink.write(writer.write(std::nullopt, {{"", std::move(summary), std::move(series.total), std::move(run)}}));
  sink.commit();
  return series.exit_code;
}

}  // namespace topdown::cli
