#include "cli/stat_run.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "cli/evaluation_options.h"
#include "cli/html_output.h"
#include "cli/output.h"
#include "cli/render.h"
#include "cli/stat_units.h"
#include "collect/collect.h"
#include "eval/evaluate.h"
#include "report/report.h"
#include "settings/stat.h"

namespace topdown::cli {
namespace {

// Evaluates every sample of the run with the same plan: as one report, with
// --per-* one per unit, with -G one per cgroup (and its units), and
// describes the run.
class Analysis {
 public:
  Analysis(const StatOptions& options, const Context& context, const schedule::Plan& plan,
           const model::RunVariables& vars, const collect::Target& target, const LiveUnits* units)
      : evaluator_(context.model, plan.nodes, evaluation_options(plan, vars)), units_(units) {
    run_.model_name = context.model.name;
    run_.model_title = context.model.title;
    run_.command = options.command;
    run_.cpus = target.cpus;
    run_.pids.assign(target.pids.begin(), target.pids.end());
    for (const collect::Cgroup& cgroup : target.cgroups) run_.cgroups.push_back(cgroup.name);
    run_.groups = static_cast<int>(plan.groups.size());
    run_.multiplexed = plan.multiplexed() && !options.no_multiplex;
    run_.extra_events = options.extra_events;
  }

  // The reports of one record: of `sample`, or of each unit of `places`;
  // with -G of each cgroup, then of each of its units. `notes` are the run's
  // warnings, for every report.
  std::vector<report::Report> reports(const counts::Sample& sample, const std::vector<counts::Place>& places,
                                      const report::RunInfo& run, const std::vector<std::string>& notes) const {
    std::vector<report::Report> reports;
    if (run_.cgroups.empty()) {
      if (!units_) return {report_of("", sample, run, notes)};
      add_units(places, "", run, notes, reports);
      return reports;
    }
    for (const aggregate::CgroupPlaces& cgroup : aggregate::split_by_cgroup(places)) {
      std::vector<std::string> cgroup_notes = notes;
      if (!cgroup.whole.any_enabled()) {
        cgroup_notes.push_back("cgroup " + cgroup.cgroup +
                               ": none of its tasks ran on the counted CPUs, so nothing was measured");
      }
      reports.push_back(report_of(cgroup.cgroup, cgroup.whole, run, cgroup_notes));
      if (units_) add_units(cgroup.places, cgroup.cgroup + " ", run, notes, reports);
    }
    return reports;
  }

  report::RunInfo interval_run(const collect::Interval& interval) const {
    report::RunInfo run = run_;
    run.elapsed_s = interval.sample.duration_s;
    return run;
  }

  report::RunInfo whole_run(const collect::WorkloadResult& result) const {
    report::RunInfo run = run_;
    run.elapsed_s = result.elapsed_s;
    run.exit_code = result.exit_code;
    run.signal = result.signal;
    return run;
  }

 private:
  void add_units(const std::vector<counts::Place>& places, const std::string& prefix, const report::RunInfo& run,
                 std::vector<std::string> notes, std::vector<report::Report>& reports) const {
    aggregate::Aggregation split = units_->split(places);
    notes.insert(notes.end(), split.warnings.begin(), split.warnings.end());
    for (const aggregate::Unit& unit : split.units) {
      report::RunInfo unit_run = run;
      unit_run.elapsed_s = unit.sample.duration_s;
      reports.push_back(report_of(prefix + unit.label, unit.sample, unit_run, notes));
    }
  }

  report::Report report_of(const std::string& scope, const counts::Sample& sample, const report::RunInfo& run,
                           const std::vector<std::string>& notes) const {
    eval::Evaluation evaluation = evaluator_.evaluate(sample);
    evaluation.warnings.insert(evaluation.warnings.end(), notes.begin(), notes.end());
    return {scope, std::move(evaluation), sample, run};
  }

  eval::Evaluator evaluator_;  // prepared once for every interval and unit
  const LiveUnits* units_;
  report::RunInfo run_;
};

std::string runs_vary_note(const std::vector<double>& elapsed_s) {
  const auto [shortest, longest] = std::minmax_element(elapsed_s.begin(), elapsed_s.end());
  return fmt::format(
      "--no-multiplex ran the command {} times, once per counter group, and combined the runs; runs vary "
      "(elapsed {:.2f}-{:.2f} s), so values that combine events of different groups compare different runs",
      elapsed_s.size(), *shortest, *longest);
}

}  // namespace

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
  if (options.repeat > 1) return count_repeated(options, context, plan, vars);
  const collect::Target target = settings::stat_target(options);
  settings::check_unit_view(options, target);
  settings::CountedGroups counted = settings::counted_groups(plan, options.per, target);
  const std::vector<collect::CounterGroup>& groups = counted.groups;
  std::optional<LiveUnits> units;
  if (options.per != aggregate::View::Global) units.emplace(options.per, target, std::move(counted.core_wide_events));
  const Analysis analysis(options, context, plan, vars, target, units ? &*units : nullptr);
  const collect::Options collect_options = cli::collect_options(options);

  ReportSink sink(options.report.output);
  HtmlOutput html(options.report, context.model, counting_words(options));
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
    collect::CombinedRuns combined = collect::run_once_per_group(target, groups, collect_options);
    if (combined.elapsed_s.size() > 1) notes.push_back(runs_vary_note(combined.elapsed_s));
    if (combined.elapsed_s.size() < groups.size()) {
      notes.push_back(fmt::format("stopped after {} of {} runs: the groups not run are not counted",
                                  combined.elapsed_s.size(), groups.size()));
    }
    result = std::move(combined.result);
  } else {
    result = collect::collect(target, groups, collect_options, intervals);
  }

  if (result.signal) {
    notes.push_back("the workload was killed by " + report::signal_name(*result.signal) +
                    "; the counts cover it until then");
  }
  const auto reports = analysis.reports(result.sample, result.places, analysis.whole_run(result), notes);
  sink.write(writer.write(std::nullopt, reports));
  html.add(std::nullopt, reports);
  sink.commit();
  html.commit(vars);
  return result.exit_code;
}

}  // namespace topdown::cli
