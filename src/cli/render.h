#pragma once
// The report format a command's options ask for, shared by stat and import.
#include <string>

#include "cli/commands.h"
#include "counts/counts.h"
#include "eval/evaluate.h"
#include "report/report.h"

namespace topdown::cli {

// The format the options ask for (text unless --csv, --json or --columns).
report::Format report_format(const ReportOptions& options);

// Text report options: colour only when it goes to a terminal's stderr.
report::TextOptions text_options(const ReportOptions& options);

// JSON, CSV or text (--columns: the header and the whole run's line).
std::string render_report(const ReportOptions& options, const eval::Evaluation& evaluation,
                          const counts::Sample& sample, const report::RunInfo& run);

}  // namespace topdown::cli
