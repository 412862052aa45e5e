#pragma once
// `topdown stat` once the plan is made: count the target (the command, -p
// processes or -a/-C CPUs) as a whole, interval by interval (-I) or once per
// counter group (--no-multiplex), and write the reports as they come.
#include "cli/commands.h"
#include "cli/context.h"
#include "collect/collect.h"
#include "model/model.h"
#include "schedule/plan.h"

namespace topdown::cli {

// How a live run counts: kernel mode, and whom the command runs as.
collect::Options collect_options(const StatOptions& options);

// stat -r N (stat_repeat.cpp): runs the command N times with the same plan
// (so rotating groups rotate alike; with --no-multiplex each group N times)
// and writes one report of the runs' means and spreads. Returns the first
// non-zero exit status of the runs, else 0; a run a signal ends stops the
// series.
int count_repeated(const StatOptions& options, const Context& context, const schedule::Plan& plan,
                   const model::RunVariables& vars);

// Returns the exit status: the workload's (128+signal when a signal killed
// it); without a workload 0, or 128+signal when SIGINT/SIGTERM stopped it.
int count_and_report(const StatOptions& options, const Context& context, const schedule::Plan& plan,
                     const model::RunVariables& vars);

}  // namespace topdown::cli
