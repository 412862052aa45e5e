#pragma once
// The report layout a command's options ask for, shared by stat and import.
#include "cli/commands.h"
#include "report/report.h"

namespace topdown::cli {

// The layout of a command's records: `timed` for a stream of intervals (-I,
// --per-interval), `scoped` for one report per unit (--per-*).
report::Layout report_layout(const ReportOptions& options, bool timed, bool scoped);

}  // namespace topdown::cli
