#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/core_type_record.h"
#include "cli/output.h"
#include "cli/render.h"
#include "cli/stat_analysis.h"
#include "cli/stat_run.h"
#include "settings/hybrid.h"
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
  for (model::Model& model : models) {
    const events::Resolver resolver = resolver_for(model, context.cpu);
    const settings::StatPlanning planning = settings::plan_stat(options, context.cpu, model);
    schedule::Plan plan = schedule::make_plan(model, planning.vars, planning.selection, resolver, planning.budget);
    plans.push_back({std::move(model), planning.vars, std::move(plan)});
  }
  return plans;
}

int count_core_types(const StatOptions& options, const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types) {
  settings::check_live_options(options);
  settings::check_core_type_options(options, "stat");
  settings::check_countable(options, cpu, types.front().model);
  const collect::Target target = settings::stat_target(options);
  settings::check_unit_view(options, target);
  settings::PlacedCoreTypes placed = settings::place_core_types(cpu, types, options.per, target);
  std::vector<CountedType> counted;
  counted.reserve(placed.types.size());  // the analyses point into it
  for (settings::PlacedCoreType& type : placed.types) {
    CountedType& entry = counted.emplace_back(CountedType{type.type, std::move(type.placement), std::nullopt, nullptr});
    if (options.per != aggregate::View::Global) {
      entry.units.emplace(options.per, target, std::move(type.core_wide_events));
    }
    entry.analysis = std::make_unique<Analysis>(options, entry.type->model, entry.type->plan, entry.type->vars, target,
                                                entry.units ? &*entry.units : nullptr);
  }

  // The reports of every core type the target ran on (all of them, n/a,
  // when it ran on none, as an interval it slept through).
  const auto reports_of = [&](const counts::Sample& sample, const std::vector<counts::Place>& places,
                              const auto& run_of, const std::vector<std::string>& notes) {
    std::vector<counts::Sample> samples;
    for (const CountedType& type : counted) samples.push_back(settings::core_type_counts(sample, type.placement.pmu));
    const bool ran_anywhere = std::any_of(samples.begin(), samples.end(), counted_anything);
    CoreTypeRecord record;
    for (size_t i = 0; i < counted.size(); ++i) {
      if (ran_anywhere && !counted_anything(samples[i])) continue;
      const Analysis& analysis = *counted[i].analysis;
      record.add(analysis.reports(samples[i], settings::core_type_places(places, counted[i].placement.pmu),
                                  run_of(analysis), notes),
                 counted[i].type->model);
    }
    return record.take(options.per == aggregate::View::Global);
  };

  ReportSink sink(options.report.output);
  report::Layout layout =
      report_layout(options.report, options.interval_ms.has_value(), options.per != aggregate::View::Global);
  layout.core_typed = true;
  report::ReportWriter writer(layout);
  collect::IntervalOptions intervals;
  if (options.interval_ms) {
    intervals.period = std::chrono::milliseconds(*options.interval_ms);
    intervals.on_interval = [&](const collect::Interval& interval) {
      const auto run_of = [&](const Analysis& analysis) { return analysis.interval_run(interval); };
      sink.write(writer.write(interval.time_s, reports_of(interval.sample, interval.places, run_of, {})));
    };
  }
  const collect::WorkloadResult result = collect::collect(target, placed.groups, collect_options(options), intervals);
  std::vector<std::string> notes;
  if (result.signal) {
    notes.push_back(killed_note(*result.signal));
  }
  const auto run_of = [&](const Analysis& analysis) { return analysis.whole_run(result); };
  sink.write(writer.write(std::nullopt, reports_of(result.sample, result.places, run_of, notes)));
  sink.commit();
  return result.exit_code;
}

}  // namespace topdown::cli
