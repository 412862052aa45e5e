#pragma once
// --per-thread, --per-core, --per-socket: one report per unit (a CPU, core,
// socket or thread), shared by stat (live counts) and import (perf's rows).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aggregate/aggregate.h"
#include "cli/commands.h"
#include "counts/counts.h"
#include "eval/evaluate.h"
#include "report/report.h"

namespace topdown::cli {

// The view of the options' `per` ("thread", "core", "socket"; empty: Global).
aggregate::View view_of(const std::string& per);

// One unit's report before it is written.
struct UnitReport {
  eval::Evaluation evaluation;
  counts::Sample sample;
  report::RunInfo run;
};
using EvaluateUnit = std::function<UnitReport(const aggregate::Unit& unit)>;

// Where a record of units sits in the output.
struct UnitRecord {
  bool with_header = true;  // CSV: the header line first
  // One of a stream of records (stat -I, import --per-interval): CSV has a
  // "time" column and JSON a "time" key, `time_s`; the whole run's record
  // after the intervals has none (an empty CSV time, a JSON null).
  bool in_stream = false;
  std::optional<double> time_s;
};

// The reports of `units`, one after another, in the options' format as
// report/units.h lays them out (CSV's header only when `record.with_header`).
std::string render_units(const ReportOptions& options, const std::vector<aggregate::Unit>& units,
                         const EvaluateUnit& evaluate, const UnitRecord& record);

// The text heading of a record in a stream: "=== time T s ===" or, for the
// whole run, "=== whole run ===", after a blank line unless `first`.
std::string stream_heading(std::optional<double> time_s, bool first);

}  // namespace topdown::cli
