#include "cli/stat_run.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "cli/evaluation_options.h"
#include "cli/html_output.h"
#include "cli/output.h"
#include "cli/render.h"
#include "cli/stat_analysis.h"
#include "cli/stat_units.h"
#include "collect/collect.h"
#include "eval/evaluate.h"
#include "report/report.h"
#include "settings/stat.h"

namespace topdown::cli {
namespace {

std::string runs_vary_note(const std::vector<double>& elapsed_s, bool side_by_side) {
  const auto [shortest, longest] = std::minmax_element(elapsed_s.begin(), elapsed_s.end());
  return fmt::format(
      "--no-multiplex ran the command {} times, once per counter group{}, and combined the runs; runs vary "
      "(elapsed {:.2f}-{:.2f} s), so values that combine events of different groups compare different runs",
      elapsed_s.size(), side_by_side ? " (each core type's side by side)" : "", *shortest, *longest);
}

}  // namespace

collect::WorkloadResult count_once_each(const collect::Target& target,
                                        const std::vector<std::vector<collect::CounterGroup>>& runs,
                                        const collect::Options& how, std::vector<std::string>& notes) {
  collect::CombinedRuns combined = collect::run_once_each(target, runs, how);
  const bool side_by_side = std::any_of(runs.begin(), runs.end(), [](const auto& groups) { return groups.size() > 1; });
  if (combined.elapsed_s.size() > 1) notes.push_back(runs_vary_note(combined.elapsed_s, side_by_side));
  if (combined.elapsed_s.size() < runs.size()) {
    notes.push_back(fmt::format("stopped after {} of {} runs: the groups not run are not counted",
                                combined.elapsed_s.size(), runs.size()));
  }
  return std::move(combined.result);
}

collect::Options collect_options(const StatOptions& options) {
  collect::Options collect_options;
  collect_options.include_kernel = options.include_kernel;
  collect_options.run_as = collect::choose_identity(::geteuid(), collect::sudo_variables_from_environment(),
                                                    {options.user, options.keep_root});
  return collect_options;
}

int count_and_report(const StatOptions& options, const Context& context, const schedule::Plan& plan,
                     const model::RunVariables& vars) {
  settings::check_live_options(options);
  const collect::Target target = settings::stat_target(options);
  settings::check_unit_view(options, target);
  settings::CountedGroups counted = settings::counted_groups(plan, options.per, target);
  const std::vector<collect::CounterGroup>& groups = counted.groups;
  std::optional<LiveUnits> units;
  if (options.per != aggregate::View::Global) units.emplace(options.per, target, std::move(counted.core_wide_events));
  const Analysis analysis(options, context.model, plan, vars, target, units ? &*units : nullptr);
  const collect::Options collect_options = cli::collect_options(options);

  ReportSink sink(options.report.output);
  HtmlOutput html(options.report, {&context.model}, counting_words(options));
  report::ReportWriter writer(
      report_layout(options.report, options.interval_ms.has_value(), units.has_value() || !target.cgroups.empty()));
  collect::IntervalOptions intervals;
  if (options.interval_ms) {
    intervals.period = std::chrono::milliseconds(*options.interval_ms);
    intervals.on_interval = [&](const collect::Interval& interval) {
      const auto reports = analysis.reports(interval.sample, interval.places, analysis.interval_run(interval), {});
      sink.write(writer.write(interval.time_s, reports));
      html.add(interval.time_s, reports);
    };
  }

  collect::WorkloadResult result;
  std::vector<std::string> notes;
  if (options.no_multiplex) {
    result = count_once_each(target, collect::one_group_a_run(groups), collect_options, notes);
  } else {
    result = collect::collect(target, groups, collect_options, intervals);
  }

  if (result.signal) {
    notes.push_back(killed_note(*result.signal));
  }
  const auto reports = analysis.reports(result.sample, result.places, analysis.whole_run(result), notes);
  sink.write(writer.write(std::nullopt, reports));
  html.add(std::nullopt, reports);
  sink.commit();
  html.commit({vars});
  return result.exit_code;
}

}  // namespace topdown::cli
