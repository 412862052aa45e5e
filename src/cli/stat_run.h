#pragma once
// `topdown stat` once the plan is made: count the target (the command, -p
// processes or -a/-C CPUs) as a whole, interval by interval (-I) or once per
// counter group (--no-multiplex), and write the reports as they come.
#include <vector>

#include "cli/commands.h"
#include "cli/context.h"
#include "collect/collect.h"
#include "model/model.h"
#include "schedule/plan.h"
#include "settings/hybrid.h"
#include "settings/stat.h"

namespace topdown::cli {

// How a live run counts: kernel mode, and whom the command runs as.
collect::Options collect_options(const StatOptions& options);

// Returns the exit status: the workload's (128+signal when a signal killed
// it); without a workload 0, or 128+signal when a stop signal (SIGINT, SIGTERM, ...) stopped it.
int count_and_report(const StatOptions& options, const Context& context, const schedule::Plan& plan,
                     const model::RunVariables& vars);

// --no-multiplex: runs the command once per entry of `runs` (one group, or
// each core type's group side by side) and combines the runs; `notes` gets
// what the combination means for the values.
collect::WorkloadResult count_once_each(const collect::Target& target,
                                        const std::vector<std::vector<collect::CounterGroup>>& runs,
                                        const collect::Options& how, std::vector<std::string>& notes);

using settings::CoreTypePlan;

// The plan of each core type's tree (context's model and its companion, or
// an Arm CPU's core kinds'), each with its own counters on its own PMU.
// Says on stderr which CPUs no core type's model counts.
std::vector<CoreTypePlan> core_type_plans(const StatOptions& options, const Context& context);

// stat -r N (stat_repeat.cpp): runs the command N times with the same plans
// (so rotating groups rotate alike; with --no-multiplex each group N times)
// and writes one report of the runs' means and spreads, of the one tree or,
// with `hybrid`, of each core type's tree (`types`) the command ran on.
// Returns the first non-zero exit status of the runs, else 0; a run a
// signal ends stops the series.
int count_repeated(const StatOptions& options, const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types,
                   bool hybrid);

// stat on a hybrid CPU (stat_core_types.cpp): every core type's groups
// counted at once, each on its type's PMU (and with -a/-C on its CPUs), each
// type's counts evaluated with its own model, one report per core type the
// target ran on (or per unit of each). Returns the exit status as
// count_and_report does.
int count_core_types(const StatOptions& options, const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types);

}  // namespace topdown::cli
