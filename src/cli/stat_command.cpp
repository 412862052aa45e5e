#include <algorithm>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "collect/collect.h"
#include "eval/evaluate.h"
#include "report/report.h"
#include "schedule/plan.h"

namespace topdown::cli {
namespace {

std::string render(const ReportOptions& options, const eval::Evaluation& evaluation, const counts::Sample& sample,
                   const report::RunInfo& run) {
  if (options.json) return report::render_json(evaluation, sample, run);
  if (options.csv) return report::render_csv(evaluation, sample, run);
  report::TextOptions text;
  text.verbose = options.verbose;
  text.color = !options.no_color && options.output.empty() && stderr_wants_color();
  return report::render_text(evaluation, sample, run, text);
}

}  // namespace

int run_stat(const StatOptions& options) {
  Context context = make_context(options.cpu);
  model::RunVariables vars;
  vars.smt_enabled = context.cpu.smt_enabled;
  schedule::Selection selection;
  selection.max_level = options.report.level;
  selection.extra_events = options.extra_events;
  selection.all_info = options.all_info;
  schedule::Plan plan = schedule::make_plan(context.model, vars, selection, context.resolver,
                                            counter_budget(context.cpu, options.counters));
  if (options.print_groups) {
    emit(options.report.output, "model " + context.model.name + ": " + schedule::describe(plan));
    return 0;
  }
  if (options.command.empty()) throw Error("no command to measure; usage: topdown stat [options] -- CMD [ARGS...]");

  std::vector<collect::CounterGroup> groups;
  for (const auto& group : plan.groups) groups.push_back({group.events});
  collect::Options collect_options;
  collect_options.include_kernel = options.include_kernel;
  collect::WorkloadResult result = collect::run_workload(options.command, groups, collect_options);
  result.sample.duration_s = result.elapsed_s;

  eval::Options eval_options;
  eval_options.vars = vars;
  eval_options.identities = plan.identities;
  eval::Evaluation evaluation = eval::evaluate(context.model, plan.nodes, result.sample, eval_options);

  report::RunInfo run;
  run.model_name = context.model.name;
  run.model_title = context.model.title;
  run.command = options.command;
  run.elapsed_s = result.elapsed_s;
  run.exit_code = result.exit_code;
  run.groups = static_cast<int>(plan.groups.size());
  run.multiplexed = plan.multiplexed();
  run.extra_events = options.extra_events;
  emit(options.report.output, render(options.report, evaluation, result.sample, run));
  return result.exit_code;
}

}  // namespace topdown::cli
