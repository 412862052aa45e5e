#include <algorithm>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "cli/perf_command.h"
#include "cli/stat_run.h"
#include "schedule/plan.h"

namespace topdown::cli {

int run_stat(const StatOptions& options) {
  Context context = make_context(options.cpu, options.metrics_file, options.model_file);
  const bool this_machine = context.model.matches(context.cpu.id);
  model::RunVariables vars;
  vars.smt_enabled = options.smt.empty() ? context.cpu.smt_enabled : options.smt == "on";
  vars.perf_metrics = use_perf_metrics(context, options.perf_metrics);
  if (this_machine) vars.online_cpus = context.cpu.online_cpus;
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
  const bool has_target =
      !options.command.empty() || !options.pids.empty() || options.system_wide || !options.cpu_list.empty();
  if (!has_target) {
    throw Error("no command to measure; usage: topdown stat [options] -- CMD [ARGS...] (or -p PID, or -a)");
  }
  return count_and_report(options, context, plan, vars);
}

}  // namespace topdown::cli
