#include "cli/render.h"

#include "cli/output.h"

namespace topdown::cli {
namespace {

// Text unless --csv, --json or --columns.
report::Format report_format(const ReportOptions& options) {
  if (options.json) return report::Format::Json;
  if (options.csv) return report::Format::Csv;
  return options.columns ? report::Format::Columns : report::Format::Text;
}

// Colour only when the report goes to a terminal's stderr.
report::TextOptions text_options(const ReportOptions& options) {
  report::TextOptions text;
  text.verbose = options.verbose;
  text.color = !options.no_color && options.output.empty() && stderr_wants_color();
  return text;
}

}  // namespace

report::Layout report_layout(const ReportOptions& options, bool timed, bool scoped) {
  return report::Layout{report_format(options), text_options(options), timed, scoped};
}

}  // namespace topdown::cli
