#include <map>
#include <string>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "cli/output_paths.h"
#include "cli/perf_command.h"
#include "cli/stat_run.h"
#include "schedule/plan.h"
#include "settings/hybrid.h"
#include "settings/stat.h"

namespace topdown::cli {

namespace {

// Comment lines naming what the plan leaves out because this machine cannot
// count it, by reason, and the counter the NMI watchdog holds.
std::string machine_limits_note(const schedule::Plan& plan) {
  std::map<std::string, std::string, std::less<>> names_by_reason;
  for (const auto& [name, why] : plan.not_counted) {
    std::string& names = names_by_reason[why];
    names += (names.empty() ? "" : ", ") + name;
  }
  std::string note;
  for (const auto& [why, names] : names_by_reason) note += "# not counted (" + why + "): " + names + "\n";
  const std::string watchdog = settings::nmi_watchdog_note(plan.budget);
  if (!watchdog.empty()) note += "# " + watchdog + "\n";
  return note;
}

// --print-groups, --print-perf: the plan of each core type's tree, the
// one tree's or, on a hybrid CPU, the P-cores' and the E-cores' (on Arm
// big.LITTLE each core kind's), each with its own counters on its own PMU.
int print_plans(const StatOptions& options, const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& plans) {
  const bool hybrid = plans.size() > 1;
  std::string out;
  if (options.print_perf) out += assumed_pmu_note(plans.front().plan, cpu);
  if (options.print_perf && hybrid) {
    out +=
        "# cores of several types: each type's tree counts on its own PMU, into its own file (perf names\n"
        "# an event it is given a name for without its PMU, so one file could not tell the types apart)\n";
  }
  for (const CoreTypePlan& type : plans) {
    const model::Model& model = type.model;
    const std::string smt = type.vars.smt_enabled ? "on" : "off";
    if (options.print_groups) {
      out += "model " + model.name + (hybrid ? ", " + model.core_type : "") + " (SMT " + smt +
             "): " + schedule::describe(type.plan);
      continue;
    }
    // The versioned name: the file is imported with the version it was planned for.
    const std::string import = "topdown import --cpu " + model.versioned_name() + " --smt " + smt + " -l " +
                               std::to_string(options.report.level) + (options.all_info ? " --info" : "");
    if (hybrid) out += "# " + model.core_type + " (" + model.pmu + "):\n";
    out += machine_limits_note(type.plan);
    out += perf_stat_commands(type.plan, options.command, import, hybrid ? "perf-" + model.pmu + ".csv" : "perf.csv");
    out += retire_latency_note(model);
  }
  emit(options.report.output, out);
  return 0;
}

}  // namespace

int run_stat(const StatOptions& options) {
  check_outputs_apart({{"the file of --model", options.model_file},
                       {"the file of --metrics-file", options.metrics_file},
                       {"the file of --retire-latencies", options.retire_latencies}},
                      {{"-o", options.report.output}, {"--html", options.report.html}});
  Context context = make_context(options.cpu, options.metrics_file, options.model_file, options.root);
  std::vector<CoreTypePlan> plans = core_type_plans(options, context);
  if (options.print_groups || options.print_perf) return print_plans(options, context.cpu, plans);
  if (settings::counts_core_types(context.cpu, plans)) {
    return count_core_types(options, context.cpu, plans);
  }
  settings::check_countable(options, context.cpu, context.model);
  if (options.repeat > 1) {
    settings::check_live_options(options);
    return count_repeated(options, context.cpu, plans, false);
  }
  return count_and_report(options, context, plans.front().plan, plans.front().vars);
}

}  // namespace topdown::cli
