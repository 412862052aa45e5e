// topdown compare A B: two saved reports (or perf files, imported first, or
// recordings, reported first) compared node by node, with gates for CI.
#include <algorithm>
#include <filesystem>
#include <optional>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/output_paths.h"
#include "cli/profile_file.h"
#include "cli/render.h"
#include "common/error.h"
#include "common/input_file.h"
#include "common/strings.h"
#include "compare/compare.h"
#include "html/comparison.h"
#include "profile/flame_graph.h"
#include "recording/data_file.h"
#include "recording/perf_script.h"
#include "report/report.h"

namespace topdown::cli {
namespace {

std::string read_whole(const std::string& path) {
  std::optional<std::string> text = read_whole_file(path);
  if (!text) {
    throw Error("cannot read " + path + ": give a saved --json report, a perf stat file or a recording");
  }
  return std::move(*text);
}

// A side's files: "A.data" or "A1.data,A2.data" (a path with a comma in it
// that names a file is one file).
std::vector<std::string> side_files(const std::string& side) {
  if (std::filesystem::exists(side)) return {side};
  std::vector<std::string> files;
  for (std::string_view file : split_words(side, ",")) files.emplace_back(file);
  if (files.empty()) throw Error("compare: an empty side '" + side + "'; give a file, or files joined by commas");
  return files;
}

// The records `topdown report --json` writes of a recording, with compare's
// model options.
std::string profile_records(const ProfiledFile& file) {
  ReportOptions json;
  json.json = true;
  report::Layout layout = report_layout(json, false, true);
  layout.sampled = true;
  layout.core_typed = file.hybrid;
  report::ReportWriter writer(layout);
  std::string text;
  for (const auto& type : file.types) text += writer.write(std::nullopt, type->reports);
  return text;
}

ProfileOptions profile_options(const std::string& path, const CompareOptions& options) {
  ProfileOptions profiled;
  profiled.file = path;
  profiled.cpu = options.cpu;
  profiled.model_file = options.model_file;
  profiled.smt = options.smt;
  profiled.report.level = options.report.level;
  profiled.report.json = true;
  return profiled;
}

// A side's report, and the profile of its first file when that is a
// recording (for the page's differential flame graph).
struct Side {
  compare::SavedReport report;
  std::optional<ProfiledFile> profile;
};

// A --json report as it is; a recording (topdown's data file, perf script)
// reported like `topdown report`; anything else imported like `topdown
// import`. `profile` receives the recording's profile when it is one.
compare::SavedReport load(const std::string& path, const CompareOptions& options,
                          std::optional<ProfiledFile>* profile) {
  std::string text = read_whole(path);
  const size_t start = text.find_first_not_of(" \t\r\n");
  if (start != std::string::npos && text[start] == '{') return compare::read_report(text, path);
  if (recording::is_data_file(path) || recording::looks_like_perf_script(text)) {
    ProfiledFile profiled = profile_file(profile_options(path, options));
    compare::SavedReport report = compare::read_report(profile_records(profiled), path);
    if (profile) profile->emplace(std::move(profiled));
    return report;
  }
  ImportOptions imported;
  imported.file = path;
  imported.cpu = options.cpu;
  imported.smt = options.smt;
  imported.report.level = options.report.level;
  imported.report.json = true;
  text.clear();
  import_records(imported, [&](std::string_view record) { text += record; });
  return compare::read_report(text, path);
}

Side load_side(const std::string& side, const CompareOptions& options) {
  Side loaded;
  std::vector<compare::SavedReport> runs;
  for (const std::string& file : side_files(side)) {
    const bool first = runs.empty() && !options.report.html.empty();
    runs.push_back(load(file, options, first ? &loaded.profile : nullptr));
  }
  loaded.report = compare::combine_runs(std::move(runs));
  return loaded;
}

// The differential flame graph of the first recordings of A and B (of a
// hybrid CPU's, their first core type's), with the page's other pictures.
std::string page_of(const compare::Comparison& comparison, const std::vector<compare::GateVerdict>& verdicts,
                    const Side& a, const Side& b) {
  if (!a.profile || !b.profile) return html::comparison_page(comparison, verdicts);
  const auto flame_of = [](const ProfiledFile& file) {
    const CoreTypeProfile& type = *file.types.front();
    return profile::flame_graph(type.recording, *type.evaluator, *type.dependencies, type.profile_options);
  };
  const profile::FlameGraph before = flame_of(*a.profile);
  const profile::FlameGraph after = flame_of(*b.profile);
  const CoreTypeProfile& type = *b.profile->types.front();
  html::FlameDiff flame{before, after, {}, type.profile.clock_event};
  for (const eval::NodeResult& node : type.profile.whole.evaluation.nodes) {
    if (!node.node->is_info) flame.tree.push_back(node.node);
  }
  return html::comparison_page(comparison, verdicts, &flame);
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
  Side a = load_side(options.a, options);
  Side b = load_side(options.b, options);
  const compare::Comparison comparison =
      compare::compare(std::move(a.report), std::move(b.report), options.alpha, options.min_change);
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
    page->write(page_of(comparison, verdicts, a, b));
    page->commit();
  }
  const bool failed = std::any_of(verdicts.begin(), verdicts.end(),
                                  [](const compare::GateVerdict& v) { return !v.tripped_in.empty(); });
  return failed ? kGateFailed : 0;
}

}  // namespace topdown::cli
