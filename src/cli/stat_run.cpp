#include "cli/stat_run.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "cli/output.h"
#include "cli/render.h"
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
      : context_(context), plan_(plan) {
    eval_options_.vars = vars;
    eval_options_.identities = plan.identities;
    eval_options_.node_groups = plan.node_groups;
    run_.model_name = context.model.name;
    run_.model_title = context.model.title;
    run_.command = options.command;
    run_.cpus = target.cpus;
    run_.pids.assign(target.pids.begin(), target.pids.end());
    run_.groups = static_cast<int>(plan.groups.size());
    run_.multiplexed = plan.multiplexed() && !options.no_multiplex;
    run_.extra_events = options.extra_events;
  }

  eval::Evaluation evaluate(const counts::Sample& sample) const {
    return eval::evaluate(context_.model, plan_.nodes, sample, eval_options_);
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
  const Context& context_;
  const schedule::Plan& plan_;
  eval::Options eval_options_;
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

int count_and_report(const StatOptions& options, const Context& context, const schedule::Plan& plan,
                     const model::RunVariables& vars) {
  if (options.no_multiplex && options.interval_ms) {
    throw Error("--no-multiplex reruns the command once per counter group, so its intervals would not line up; "
                "leave out -I or --no-multiplex");
  }
  const collect::Target target = target_of(options);
  const Analysis analysis(options, context, plan, vars, target);
  std::vector<collect::CounterGroup> groups;
  for (const auto& group : plan.groups) {
    // A :percore event needs its core's threads added up per core, which live
    // counting does not do: leave it out, so what uses it is n/a and names it
    // instead of showing one thread's count as the core's.
    collect::CounterGroup counted;
    std::copy_if(group.events.begin(), group.events.end(), std::back_inserter(counted.events),
                 [](const events::Encoding& event) { return !event.percore; });
    if (!counted.events.empty()) groups.push_back(std::move(counted));
  }
  collect::Options collect_options;
  collect_options.include_kernel = options.include_kernel;
  collect_options.run_as = collect::choose_identity(::geteuid(), collect::sudo_variables_from_environment(),
                                                    {options.user, options.keep_root});

  ReportSink sink(options.report.output);
  report::IntervalStream stream(report_format(options.report), text_options(options.report));
  collect::IntervalOptions intervals;
  if (options.interval_ms) {
    intervals.period = std::chrono::milliseconds(*options.interval_ms);
    intervals.on_interval = [&](const collect::Interval& interval) {
      sink.write(stream.interval(analysis.evaluate(interval.sample), interval.sample, analysis.interval_run(interval),
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

  eval::Evaluation evaluation = analysis.evaluate(result.sample);
  if (result.signal) {
    notes.push_back("the workload was killed by " + report::signal_name(*result.signal) +
                    "; the counts cover it until then");
  }
  evaluation.warnings.insert(evaluation.warnings.end(), notes.begin(), notes.end());
  const report::RunInfo run = analysis.whole_run(result);
  sink.write(options.interval_ms ? stream.summary(evaluation, result.sample, run)
                                 : render_report(options.report, evaluation, result.sample, run));
  sink.commit();
  return result.exit_code;
}

}  // namespace topdown::cli
