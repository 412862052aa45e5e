#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/core_type_record.h"
#include "cli/html_output.h"
#include "cli/output.h"
#include "cli/render.h"
#include "cli/stat_analysis.h"
#include "cli/stat_run.h"
#include "model/retire_latency_file.h"
#include "settings/hybrid.h"
#include "settings/perf_metrics.h"
#include "settings/stat.h"

namespace topdown::cli {
namespace {

// One core type as counted: where its groups open, its units and its
// evaluation.
struct CountedType {
  const CoreTypePlan* type;
  settings::CoreTypePlacement placement;
  std::optional<LiveUnits> units;
  std::unique_ptr<Analysis> analysis;
};

}  // namespace

std::vector<CoreTypePlan> core_type_plans(const StatOptions& options, const Context& context) {
  std::vector<CoreTypePlan> plans;
  std::vector<model::Model> models = core_type_models(context.model, context.cpu, options.metrics_file);
  std::fputs(uncounted_core_kinds_warning(context.cpu, models).c_str(), stderr);
  const model::RetireLatencies given_latencies = model::read_retire_latency_file(options.retire_latencies);
  // Trial opens run on this machine only; a copy of another's /sys is judged by its sysfs.
  const schedule::TrialOpen open = context.cpu.another_machine ? schedule::TrialOpen() : collect::trial_open;
  std::string notes;
  for (model::Model& model : models) {
    const events::Resolver resolver = resolver_for(model, context.cpu);
    settings::StatPlanning planning = settings::plan_stat(options, context.cpu, model, given_latencies);
    settings::find_countable(planning, options.perf_metrics, context.cpu, model, resolver, open);
    settings::check_perf_metrics_choice(options.perf_metrics, model, planning.vars,
                                        schedule::select_nodes(model, planning.selection), resolver);
    schedule::Plan plan =
        schedule::make_plan(model, planning.vars, planning.selection, resolver, planning.budget, planning.countable);
    const std::string watchdog = settings::nmi_watchdog_note(planning.budget);
    if (!watchdog.empty() && notes.empty()) notes = "topdown: note: " + watchdog + "\n";
    plans.push_back({std::move(model), planning.vars, std::move(plan)});
  }
  // Said once, whatever the core types; a printed plan says it as a comment
  // of its own, which a shell reading the plan skips.
  if (!options.print_groups && !options.print_perf) std::fputs(notes.c_str(), stderr);
  return plans;
}

int count_core_types(const StatOptions& options, const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types) {
  settings::check_live_options(options);
  settings::check_countable(options, cpu, types.front().model);
  if (options.repeat > 1) return count_repeated(options, cpu, types, true);
  const collect::Target target = settings::stat_target(options);
  settings::check_unit_view(options, target);
  settings::PlacedCoreTypes placed = settings::place_core_types(cpu, types, options.per, target);
  std::vector<CountedType> counted;
  counted.reserve(placed.types.size());  // the analyses point into it
  std::vector<std::vector<collect::CounterGroup>> groups_by_type;
  for (settings::PlacedCoreType& type : placed.types) {
    groups_by_type.push_back(std::move(type.groups));
    CountedType& entry = counted.emplace_back(CountedType{type.type, std::move(type.placement), std::nullopt, nullptr});
    if (options.per != aggregate::View::Global) {
      entry.units.emplace(options.per, target, std::move(type.core_wide_events));
    }
    entry.analysis = std::make_unique<Analysis>(options, type.type->model, type.type->plan, type.type->vars, target,
                                                entry.units ? &*entry.units : nullptr);
  }

  // The reports of every core type the target ran on (all of them, n/a,
  // when it ran on none, as an interval it slept through; the columns view
  // keeps every type's block on every line). Shares of the cycles only
  // where each type has one report.
  const bool one_report_a_type = options.per == aggregate::View::Global && target.cgroups.empty();
  const auto reports_of = [&](const counts::Sample& sample, const std::vector<counts::Place>& places,
                              const auto& run_of, const std::vector<std::string>& notes) {
    std::vector<counts::Sample> samples;
    for (const CountedType& type : counted) samples.push_back(settings::core_type_counts(sample, type.placement.pmu));
    const bool ran_anywhere = std::any_of(samples.begin(), samples.end(), counted_anything);
    CoreTypeRecord record(ran_anywhere, options.report.columns);
    for (size_t i = 0; i < counted.size(); ++i) {
      const bool ran = counted_anything(samples[i]);
      if (!record.shows(ran)) continue;
      const Analysis& analysis = *counted[i].analysis;
      record.add(analysis.reports(samples[i], settings::core_type_places(places, counted[i].placement.pmu),
                                  run_of(analysis), notes),
                 counted[i].type->model, ran);
    }
    return record.take(one_report_a_type);
  };

  std::vector<const model::Model*> models;
  std::vector<model::RunVariables> vars;
  for (const CountedType& type : counted) {
    models.push_back(&type.type->model);
    vars.push_back(type.type->vars);
  }
  ReportSink sink(options.report.output);
  HtmlOutput html(options.report, models, counting_words(options));
  report::Layout layout = report_layout(options.report, options.interval_ms.has_value(), !one_report_a_type);
  layout.core_typed = true;
  report::ReportWriter writer(layout);
  collect::IntervalOptions intervals;
  if (options.interval_ms) {
    intervals.period = std::chrono::milliseconds(*options.interval_ms);
    intervals.on_interval = [&](const collect::Interval& interval) {
      const auto run_of = [&](const Analysis& analysis) { return analysis.interval_run(interval); };
      const std::vector<report::Report> reports = reports_of(interval.sample, interval.places, run_of, {});
      sink.write(writer.write(interval.time_s, reports));
      html.add(interval.time_s, reports);
    };
  }
  const collect::Options how = collect_options(options);
  std::vector<std::string> notes;
  const collect::WorkloadResult result =
      options.no_multiplex ? count_once_each(target, settings::side_by_side_runs(groups_by_type), how, notes)
                           : collect::collect(target, placed.groups, how, intervals);
  if (result.signal) {
    notes.push_back(killed_note(*result.signal));
  }
  const auto run_of = [&](const Analysis& analysis) { return analysis.whole_run(result); };
  const std::vector<report::Report> reports = reports_of(result.sample, result.places, run_of, notes);
  sink.write(writer.write(std::nullopt, reports));
  html.add(std::nullopt, reports);
  sink.commit();
  html.commit(vars);
  return result.exit_code;
}

}  // namespace topdown::cli
