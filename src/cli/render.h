#pragma once
// The report format a command's options ask for, shared by stat and import.
#include <string>

#include "cli/commands.h"
#include "counts/counts.h"
#include "eval/evaluate.h"
#include "report/report.h"

namespace topdown::cli {

// JSON, CSV or text (coloured only when it goes to a terminal's stderr).
std::string render_report(const ReportOptions& options, const eval::Evaluation& evaluation,
                          const counts::Sample& sample, const report::RunInfo& run);

}  // namespace topdown::cli
