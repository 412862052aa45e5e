#include "cli/render.h"

#include "cli/output.h"

namespace topdown::cli {

report::Format report_format(const ReportOptions& options) {
  if (options.json) return report::Format::Json;
  if (options.csv) return report::Format::Csv;
  return options.columns ? report::Format::Columns : report::Format::Text;
}

report::TextOptions text_options(const ReportOptions& options) {
  report::TextOptions text;
  text.verbose = options.verbose;
  text.color = !options.no_color && options.output.empty() && stderr_wants_color();
  return text;
}

std::string render_report(const ReportOptions& options, const eval::Evaluation& evaluation,
                          const counts::Sample& sample, const report::RunInfo& run) {
  switch (report_format(options)) {
    case report::Format::Json:
      return report::render_json(evaluation, sample, run);
    case report::Format::Csv:
      return report::render_csv(evaluation, sample, run);
    case report::Format::Columns:
      return report::render_columns_header(evaluation) + report::render_columns_row(evaluation, std::nullopt);
    case report::Format::Text:
      break;
  }
  return report::render_text(evaluation, sample, run, text_options(options));
}

}  // namespace topdown::cli
