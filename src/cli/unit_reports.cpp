#include "cli/unit_reports.h"

#include <fmt/format.h>

#include "cli/render.h"
#include "report/units.h"

namespace topdown::cli {

aggregate::View view_of(const std::string& per) {
  if (per == "thread") return aggregate::View::Thread;
  if (per == "core") return aggregate::View::Core;
  if (per == "socket") return aggregate::View::Socket;
  return aggregate::View::Global;
}

std::string render_units(const ReportOptions& options, const std::vector<aggregate::Unit>& units,
                         const EvaluateUnit& evaluate, const UnitRecord& record) {
  std::string text;
  for (size_t i = 0; i < units.size(); ++i) {
    UnitReport unit = evaluate(units[i]);
    const std::string& scope = units[i].label;
    if (options.json) {
      if (record.in_stream) unit.run.interval_time_s = record.time_s;
      text += report::render_unit_json(unit.evaluation, unit.sample, unit.run, scope, record.in_stream);
    } else if (options.csv) {
      const bool with_header = record.with_header && i == 0;
      text += record.in_stream ? report::csv_with_time(
                                     report::render_unit_csv(unit.evaluation, unit.sample, unit.run, scope, true),
                                     record.time_s, with_header)
                               : report::render_unit_csv(unit.evaluation, unit.sample, unit.run, scope, with_header);
    } else {
      if (i > 0) text += "\n";
      text += report::render_unit_text(unit.evaluation, unit.sample, unit.run, text_options(options), scope);
    }
  }
  return text;
}

std::string stream_heading(std::optional<double> time_s, bool first) {
  const std::string heading = time_s ? fmt::format("=== time {} s ===", *time_s) : "=== whole run ===";
  return (first ? "" : "\n") + heading + "\n";
}

}  // namespace topdown::cli
