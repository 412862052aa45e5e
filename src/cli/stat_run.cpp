#include "cli/stat_run.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "cli/output.h"
#include "cli/render.h"
#include "cli/stat_units.h"
#include "cli/unit_reports.h"
#include "collect/collect.h"
#include "eval/evaluate.h"
#include "report/report.h"

namespace topdown::cli {
namespace {

collect::Target target_of(const StatOptions& options) {
  collect::Target target;
  target.command = options.command;
  target.pids.assign(options.pids.begin(), options.pids.end());
  if (options.system_wide || !options.cpu_list.empty()) target.cpus = collect::select_cpus(options.cpu_list);
  return target;
}

// Evaluates every sample of the run with the same plan and describes the run.
class Analysis {
 public:
  Analysis(const StatOptions& options, const Context& context, const schedule::Plan& plan,
           const model::RunVariables& vars, const collect::Target& target)
      : evaluator_(context.model, plan.nodes, evaluation_options(plan, vars)) {
    run_.model_name = context.model.name;
    run_.model_title = context.model.title;
    run_.command = options.command;
    run_.cpus = target.cpus;
    run_.pids.assign(target.pids.begin(), target.pids.end());
    run_.groups = static_cast<int>(plan.groups.size());
    run_.multiplexed = plan.multiplexed() && !options.no_multiplex;
    run_.extra_events = options.extra_events;
  }

  eval::Evaluation evaluate(const counts::Sample& sample) const { return evaluator_.evaluate(sample); }

  // One unit's report; `notes` are the run's warnings that apply to every unit.
  UnitReport unit(const aggregate::Unit& unit, report::RunInfo run, const std::vector<std::string>& notes) const {
    eval::Evaluation evaluation = evaluate(unit.sample);
    evaluation.warnings.insert(evaluation.warnings.end(), notes.begin(), notes.end());
    run.elapsed_s = unit.sample.duration_s;
    return {std::move(evaluation), unit.sample, std::move(run)};
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
  static eval::Options evaluation_options(const schedule::Plan& plan, const model::RunVariables& vars) {
    eval::Options options;
    options.vars = vars;
    options.identities = plan.identities;
    options.node_groups = plan.node_groups;
    return options;
  }

  eval::Evaluator evaluator_;
  report::RunInfo run_;
};

std::string runs_vary_note(const std::vector<double>& elapsed_s) {
  const auto [shortest, longest] = std::minmax_element(elapsed_s.begin(), elapsed_s.end());
  return fmt::format(
      "--no-multiplex ran the command {} times, once per counter group, and combined the runs; runs vary "
      "(elapsed {:.2f}-{:.2f} s), so values that combine events of different groups compare different runs",
      elapsed_s.size(), *shortest, *longest);
}

// The counter groups of the plan. A :percore event needs its core's threads
// added up per core: counted per CPU with a per-unit view, `units` does
// that; otherwise it is left out, so that what uses it is n/a and names it
// instead of showing one thread's count as the core's.
std::vector<collect::CounterGroup> counted_groups(const schedule::Plan& plan, LiveUnits* units) {
  const bool keep_core_wide = units && units->counts_core_wide_events();
  std::vector<collect::CounterGroup> groups;
  for (const auto& group : plan.groups) {
    collect::CounterGroup counted;
    counted.copies = group.copies;
    for (const events::Encoding& event : group.events) {
      if (!event.percore) {
        counted.events.push_back(event);
      } else if (keep_core_wide) {
        units->add_core_wide_event(event.name);
        counted.events.push_back(event);
      }
    }
    if (!counted.events.empty()) groups.push_back(std::move(counted));
  }
  return groups;
}

// One record of every unit's report: an interval's (time_s) or the whole
// run's, as text under a stream heading when there are intervals.
class UnitStream {
 public:
  UnitStream(const StatOptions& options, const Analysis& analysis, const LiveUnits& units)
      : options_(options), analysis_(analysis), units_(units) {}

  std::string record(const std::vector<counts::Place>& places, const report::RunInfo& run,
                     std::optional<double> time_s, std::vector<std::string> notes) {
    aggregate::Aggregation split = units_.split(places);
    notes.insert(notes.end(), split.warnings.begin(), split.warnings.end());
    UnitRecord record;
    record.with_header = first_;
    record.in_stream = options_.interval_ms.has_value();
    record.time_s = time_s;
    const bool text = !options_.report.csv && !options_.report.json;
    std::string out = text && record.in_stream ? stream_heading(time_s, first_) : "";
    first_ = false;
    return out + render_units(options_.report, split.units,
                              [&](const aggregate::Unit& unit) { return analysis_.unit(unit, run, notes); }, record);
  }

 private:
  const StatOptions& options_;
  const Analysis& analysis_;
  const LiveUnits& units_;
  bool first_ = true;
};

}  // namespace

int count_and_report(const StatOptions& options, const Context& context, const schedule::Plan& plan,
                     const model::RunVariables& vars) {
  if (options.no_multiplex && options.interval_ms) {
    throw Error("--no-multiplex reruns the command once per counter group, so its intervals would not line up; "
                "leave out -I or --no-multiplex");
  }
  const collect::Target target = target_of(options);
  const Analysis analysis(options, context, plan, vars, target);
  const aggregate::View view = view_of(options.per);
  std::optional<LiveUnits> units;
  if (view != aggregate::View::Global) units.emplace(view, options, target);
  const std::vector<collect::CounterGroup> groups = counted_groups(plan, units ? &*units : nullptr);
  collect::Options collect_options;
  collect_options.include_kernel = options.include_kernel;
  collect_options.run_as = collect::choose_identity(::geteuid(), collect::sudo_variables_from_environment(),
                                                    {options.user, options.keep_root});

  ReportSink sink(options.report.output);
  report::IntervalStream stream(report_format(options.report), text_options(options.report));
  std::optional<UnitStream> unit_stream;
  if (units) unit_stream.emplace(options, analysis, *units);
  collect::IntervalOptions intervals;
  if (options.interval_ms) {
    intervals.period = std::chrono::milliseconds(*options.interval_ms);
    intervals.on_interval = [&](const collect::Interval& interval) {
      const report::RunInfo run = analysis.interval_run(interval);
      sink.write(unit_stream ? unit_stream->record(interval.places, run, interval.time_s, {})
                             : stream.interval(analysis.evaluate(interval.sample), interval.sample, run,
                                               interval.time_s));
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
  const report::RunInfo run = analysis.whole_run(result);
  if (unit_stream) {
    sink.write(unit_stream->record(result.places, run, std::nullopt, notes));
  } else {
    eval::Evaluation evaluation = analysis.evaluate(result.sample);
    evaluation.warnings.insert(evaluation.warnings.end(), notes.begin(), notes.end());
    sink.write(options.interval_ms ? stream.summary(evaluation, result.sample, run)
                                   : render_report(options.report, evaluation, result.sample, run));
  }
  sink.commit();
  return result.exit_code;
}

}  // namespace topdown::cli
