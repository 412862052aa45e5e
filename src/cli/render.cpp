#include "cli/render.h"

#include "cli/output.h"

namespace topdown::cli {

std::string render_report(const ReportOptions& options, const eval::Evaluation& evaluation,
                          const counts::Sample& sample, const report::RunInfo& run) {
  if (options.json) return report::render_json(evaluation, sample, run);
  if (options.csv) return report::render_csv(evaluation, sample, run);
  report::TextOptions text;
  text.verbose = options.verbose;
  text.color = !options.no_color && options.output.empty() && stderr_wants_color();
  return report::render_text(evaluation, sample, run, text);
}

}  // namespace topdown::cli
