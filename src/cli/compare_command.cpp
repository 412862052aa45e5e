// topdown compare A B: two saved reports (or perf files, imported first)
// compared node by node, with gates for CI.
#include <algorithm>
#include <optional>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/output_paths.h"
#include "common/error.h"
#include "common/input_file.h"
#include "compare/compare.h"
#include "html/comparison.h"

namespace topdown::cli {
namespace {

std::string read_whole(const std::string& path) {
  std::optional<std::string> text = read_whole_file(path);
  if (!text) throw Error("cannot read " + path + ": give a saved --json report or a perf stat file");
  return std::move(*text);
}

// A --json report as it is; anything else is imported like `topdown import`.
compare::SavedReport load(const std::string& path, const CompareOptions& options) {
  std::string text = read_whole(path);
  const size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos || text[start] != '{') {
    ImportOptions imported;
    imported.file = path;
    imported.cpu = options.cpu;
    imported.smt = options.smt;
    imported.report.level = options.report.level;
    imported.report.json = true;
    text.clear();
    import_records(imported, [&](std::string_view record) { text += record; });
  }
  return compare::read_report(text, path);
}

}  // namespace

int run_compare(const CompareOptions& options) {
  check_outputs_apart({{"report A", options.a}, {"report B", options.b}},
                      {{"-o", options.report.output}, {"--html", options.report.html}});
  std::vector<compare::Gate> gates;
  for (const std::string& gate : options.fail_if) gates.push_back(compare::parse_gate(gate));
  // Opened first, so that an unwritable page fails before any work.
  std::optional<ReportSink> page;
  if (!options.report.html.empty()) page.emplace(options.report.html, "--html");
  const compare::Comparison comparison =
      compare::compare(load(options.a, options), load(options.b, options), options.alpha, options.min_change);
  const std::vector<compare::GateVerdict> verdicts = compare::check_gates(comparison, gates);
  std::string text;
  if (options.report.csv) {
    text = compare::render_csv(comparison);
  } else if (options.report.json) {
    text = compare::render_json(comparison, verdicts);
  } else {
    compare::TextOptions text_options;
    text_options.color = !options.report.no_color && options.report.output.empty() && stderr_wants_color();
    text = compare::render_text(comparison, verdicts, text_options);
  }
  emit(options.report.output, text);
  if (page) {
    page->write(html::comparison_page(comparison, verdicts));
    page->commit();
  }
  const bool failed = std::any_of(verdicts.begin(), verdicts.end(),
                                  [](const compare::GateVerdict& v) { return !v.tripped_in.empty(); });
  return failed ? kGateFailed : 0;
}

}  // namespace topdown::cli
