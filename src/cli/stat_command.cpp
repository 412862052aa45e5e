#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "cli/perf_command.h"
#include "cli/stat_run.h"
#include "schedule/plan.h"
#include "settings/stat.h"

namespace topdown::cli {

int run_stat(const StatOptions& options) {
  Context context = make_context(options.cpu, options.metrics_file, options.model_file);
  const settings::StatPlanning planning = settings::plan_stat(options, context.cpu, context.model);
  const model::RunVariables& vars = planning.vars;
  schedule::Plan plan = schedule::make_plan(context.model, vars, planning.selection, context.resolver, planning.budget);
  const std::string smt = vars.smt_enabled ? "on" : "off";
  if (options.print_groups) {
    emit(options.report.output, "model " + context.model.name + " (SMT " + smt + "): " + schedule::describe(plan));
    return 0;
  }
  if (options.print_perf) {
    const std::string import = "topdown import --cpu " + context.model.name + " --smt " + smt + " -l " +
                               std::to_string(options.report.level) + (options.all_info ? " --info" : "");
    emit(options.report.output, perf_stat_commands(plan, options.command, import));
    return 0;
  }
  settings::check_countable(options, context.cpu, context.model);
  return count_and_report(options, context, plan, vars);
}

}  // namespace topdown::cli
