#include <algorithm>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "cli/perf_command.h"
#include "cli/render.h"
#include "collect/collect.h"
#include "eval/evaluate.h"
#include "report/report.h"
#include "schedule/plan.h"

namespace topdown::cli {

int run_stat(const StatOptions& options) {
  Context context = make_context(options.cpu);
  const bool this_machine = context.model.matches(context.cpu.id);
  model::RunVariables vars;
  vars.smt_enabled = options.smt.empty() ? context.cpu.smt_enabled : options.smt == "on";
  schedule::Selection selection;
  selection.max_level = options.report.level;
  selection.extra_events = options.extra_events;
  selection.all_info = options.all_info;
  schedule::Plan plan = schedule::make_plan(context.model, vars, selection, context.resolver,
                                            counter_budget(context, vars.smt_enabled, options.counters));
  const std::string smt_note = "SMT " + std::string(vars.smt_enabled ? "on" : "off");
  if (options.print_groups) {
    emit(options.report.output, "model " + context.model.name + " (" + smt_note + "): " + schedule::describe(plan));
    return 0;
  }
  if (options.print_perf) {
    const std::string import = "topdown import --cpu " + context.model.name + " --smt " +
                               (vars.smt_enabled ? "on" : "off") + " -l " + std::to_string(options.report.level) +
                               (options.all_info ? " --info" : "");
    emit(options.report.output, perf_stat_commands(plan, options.command, import));
    return 0;
  }
  if (!this_machine && context.model.cpus.front().vendor != context.cpu.id.vendor) {
    throw Error("--cpu " + options.cpu + " chose a model for " + cpu::vendor_name(context.model.cpus.front().vendor) +
                " CPUs (" + context.model.title + "), whose events this " + cpu::vendor_name(context.cpu.id.vendor) +
                " CPU cannot count; use --print-perf or --print-groups with it, or leave out --cpu");
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
  emit(options.report.output, render_report(options.report, evaluation, result.sample, run));
  return result.exit_code;
}

}  // namespace topdown::cli
