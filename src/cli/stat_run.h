#pragma once
// `topdown stat` once the plan is made: count the target (the command, -p
// processes or -a/-C CPUs) as a whole, interval by interval (-I) or once per
// counter group (--no-multiplex), and write the reports as they come.
#include "cli/commands.h"
#include "cli/context.h"
#include "model/model.h"
#include "schedule/plan.h"

namespace topdown::cli {

// Returns the exit status: the workload's (128+signal when a signal killed
// it); without a workload 0, or 128+signal when SIGINT/SIGTERM stopped it.
int count_and_report(const StatOptions& options, const Context& context, const schedule::Plan& plan,
                     const model::RunVariables& vars);

}  // namespace topdown::cli
