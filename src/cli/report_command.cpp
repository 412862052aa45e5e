// topdown report FILE: the per-function profile of a sampled run.
#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/html_output.h"
#include "cli/output.h"
#include "cli/render.h"
#include "common/error.h"
#include "common/printable.h"
#include "common/strings.h"
#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "pprof/pprof.h"
#include "profile/attribute.h"
#include "profile/call_stacks.h"
#include "profile/flame_graph.h"
#include "profile/name_samples.h"
#include "profile/profile.h"
#include "recording/data_file.h"
#include "recording/perf_script.h"
#include "report/csv.h"
#include "report/report.h"
#include "settings/import.h"
#include "symbols/symbolizer.h"

namespace topdown::cli {
namespace {

// What a recording's file says of the machine, as import's decision reads it.
import::FileInfo file_facts(const recording::Recording& recording, bool header_known){import::FileInfo file;
if (header_known) {
  file.smt_enabled = recording.header.smt_enabled;
  file.online_cpus = recording.header.cpus_online;
}
return file;
}  // namespace

settings::ImportOptions decision_options(const ProfileOptions& options) {
  settings::ImportOptions decided;
  decided.report = options.report;
  decided.file = options.file;
  decided.cpu = options.cpu;
  decided.smt = options.smt;
  decided.perf_metrics = options.perf_metrics;
  decided.all_info = options.all_info;
  return decided;
}

std::vector<std::string> recording_warnings(const recording::Recording& recording, const std::string& file) {
  std::vector<std::string> warnings = recording.warnings;
  if (recording.lost_samples > 0) {
    warnings.push_back(
        fmt::format("{}: {} samples were lost (the kernel's buffer was full): functions are missing "
                    "part of their samples; record at a lower frequency (-F) or a longer period (-c)",
                    file, recording.lost_samples));
  }
  if (recording.truncated) {
    warnings.push_back(file + " is truncated: the report covers the samples before the cut");
  }
  return warnings;
}

report::Report function_report(const profile::FunctionResult& result, const profile::Profile& profile,
                               const recording::Recording& recording, const model::Model& model,
                               const ProfileOptions& options, const std::string& tree = "self") {
  const profile::Function& function = result.function;
  report::RunInfo run;
  run.model_name = model.name;
  run.model_title = model.title;
  run.source = options.file;
  run.elapsed_s = function.counts.duration_s;  // a function's: the run's time times its share of the clock
  run.groups = static_cast<int>(recording.header.groups.size());
  run.multiplexed = result.evaluation.counted_share < 1;
  report::Sampled sampled;
  sampled.function = function.name;
  sampled.module = function.module;
  sampled.share = function.share;
  sampled.clock_event = profile.clock_event;
  sampled.samples = function.samples;
  sampled.min_samples = profile::kMinSamples;
  sampled.node_samples = result.node_samples;
  const bool whole = &result == &profile.whole;
  if (whole) {
    sampled.lost_samples = recording.lost_samples;
    sampled.truncated = recording.truncated;
  }
  sampled.tree = tree;
  sampled.call_path = function.callers;
  run.sampled = std::move(sampled);
  std::string scope = function.callers.empty() ? function.name : join(function.callers, " > ");
  if (!whole) scope += " [" + function.module + "]";
  if (tree == "children") scope += " (children)";
  return {printable(scope), result.evaluation, function.counts, std::move(run)};
}

std::string source_of(const recording::NamedSymbol& symbol) {
  return symbol.line > 0 ? fmt::format("{}:{}", symbol.file, symbol.line) : "";
}

std::string locate_text(const std::optional<profile::Locate>& locate, const recording::Recording& recording) {
  if (!locate) return "\nNo bottleneck in the whole program: nothing to locate.\n";
  std::string out =
      fmt::format("\nWhere {}'s events land ({}: {}):\n", locate->node,
                  locate->sample_events ? "its sample events" : "its own events, no sample event recorded",
                  join(locate->events, ", "));
  if (locate->rows.empty()) return out + "  none of these events was counted in any sample\n";
  size_t function_width = 8;
  size_t source_width = 6;
  for (const auto& row : locate->rows) {
    const auto& symbol = recording.symbols[row.symbol];
    function_width = std::max(function_width, printable(symbol.function).size());
    source_width = std::max(source_width, source_of(symbol).size());
  }
  out += fmt::format("  {:>6}  {:>8}  {:<{}}  {:<{}}  {}\n", "Share", "Samples", "Function", function_width, "Source",
                     source_width, "Module");
  for (const auto& row : locate->rows) {
    const auto& symbol = recording.symbols[row.symbol];
    std::string line =
        fmt::format("  {:>5.1f}%  {:>8}  {:<{}}  {:<{}}  {}", row.share * 100, row.samples, printable(symbol.function),
                    function_width, printable(source_of(symbol)), source_width, printable(symbol.module));
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

// Rows of kind "location" under csv_sampled_header() (README.md).
std::string locate_csv(const std::optional<profile::Locate>& locate, const recording::Recording& recording) {
  std::string out;
  if (!locate) return out;
  for (const auto& row : locate->rows) {
    const auto& symbol = recording.symbols[row.symbol];
    report::CsvRow fields = {symbol.function,
                             symbol.module,
                             fmt::format("{}", row.share),
                             std::to_string(row.samples),
                             "location",
                             source_of(symbol),
                             "",
                             locate->node,
                             "",
                             fmt::format("{}", row.weight),
                             join(locate->events, " "),
                             "",
                             "",
                             "",
                             locate->sample_events ? "sample_events" : "node_events",
                             "",
                             "",
                             "",
                             ""};
    out += report::csv_line(fields);
  }
  return out;
}

std::string locate_json(const std::optional<profile::Locate>& locate, const recording::Recording& recording) {
  nlohmann::json object = {{"format", "topdown-1"}, {"locate", nullptr}};
  if (locate) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : locate->rows) {
      const auto& symbol = recording.symbols[row.symbol];
      rows.push_back({{"function", symbol.function},
                      {"module", symbol.module},
                      {"file", symbol.line > 0 ? nlohmann::json(symbol.file) : nlohmann::json()},
                      {"line", symbol.line > 0 ? nlohmann::json(symbol.line) : nlohmann::json()},
                      {"share", row.share},
                      {"weight", row.weight},
                      {"samples", row.samples}});
    }
    object["locate"] = {
        {"node", locate->node}, {"events", locate->events}, {"sample_events", locate->sample_events}, {"rows", rows}};
  }
  return object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// The model of a data file: the one it was recorded with (a model name, or
// the file given to record --model), unless --cpu or --model says otherwise.
model::Model recorded_model(const ProfileOptions& options, const recording::Header& header) {
  if (!options.cpu.empty() || !options.model_file.empty() || header.model.empty()) {
    return choose_model(cpu::read_cpuid(), options.cpu, "", options.model_file);
  }
  const bool is_path = header.model.find('/') != std::string::npos || header.model.ends_with(".model");
  if (is_path && !std::filesystem::exists(header.model)) {
    throw Error(fmt::format("{} was recorded with the model {}, which is gone: give it again with --model FILE",
                            options.file, header.model));
  }
  return is_path ? choose_model(cpu::read_cpuid(), "", "", header.model)
                 : choose_model(cpu::read_cpuid(), header.model, "", "");
}

// Names the samples of topdown's own data file through the processes'
// mappings, and passes the symbolizer's warnings on.
void symbolize(recording::Recording& recording) {
  symbols::Symbolizer symbolizer;
  profile::name_samples(recording, symbolizer);
  for (const std::string& warning : symbolizer.warnings()) recording.warnings.push_back(warning);
}

// --children and --callers: the trees of the call stacks, by the tree's name.
std::vector<std::pair<std::string, std::vector<profile::FunctionResult>>> call_stack_trees(
    const recording::Recording& recording, const ProfileOptions& options, const eval::Evaluator& evaluator,
    const model::Dependencies& dependencies, const profile::Options& profile_options) {
  std::vector<std::pair<std::string, std::vector<profile::FunctionResult>>> trees;
  if (!options.children && options.callers.empty()) return trees;
  if (recording.header.call_graph == recording::CallGraph::None) {
    throw Error(
        fmt::format("{} has no call stacks for --children or --callers: record with -g or --call-graph "
                    "dwarf (perf record -g for perf script)",
                    options.file));
  }
  if (options.children) {
    trees.emplace_back("children",
                       profile::analyse_functions(recording.header, profile::attribute_children(recording).functions,
                                                  evaluator, dependencies, profile_options));
  }
  if (!options.callers.empty()) {
    profile::Attribution paths = profile::attribute_callers(recording, options.callers, options.file);
    trees.emplace_back("callers", profile::analyse_functions(recording.header, std::move(paths.functions), evaluator,
                                                             dependencies, profile_options));
  }
  return trees;
}

}  // namespace topdown::cli

int run_report(const ProfileOptions& options) {
  if (options.min_share_percent < 0 || options.min_share_percent > 100) {
    throw Error(fmt::format("--min-share {}: give a percentage from 0 to 100", options.min_share_percent));
  }
  // topdown's own data file says its model, SMT and online CPUs in its
  // header; perf script text says none of these.
  const bool header_known = recording::is_data_file(options.file);
  recording::Recording recording;
  std::optional<model::Model> chosen;
  if (header_known) {
    recording = recording::read_data_file(options.file);
    chosen = recorded_model(options, recording.header);
    symbolize(recording);
  } else {
    chosen = choose_model(cpu::read_cpuid(), options.cpu, "", options.model_file);
  }
  const model::Model& model = *chosen;
  const events::Resolver resolver(events::offline_resolver_config(model));
  if (!header_known) recording = recording::read_perf_script(options.file, model, resolver);
  HtmlOutput html(options.report, model,
                  fmt::format("{} samples{}, {} lost{}", recording.samples.size(),
                              header_known ? " (topdown record)" : " (perf script)", recording.lost_samples,
                              recording.truncated ? ", file cut short" : ""));

  profile::Attribution attribution = profile::attribute(recording);
  const settings::ImportDecision decision = settings::decide_import(
      decision_options(options), model, resolver, file_facts(recording, header_known), attribution.whole.counts);
  const model::Dependencies dependencies(decision.folded, decision.identities, decision.fallbacks);
  eval::Options eval_options;
  eval_options.vars = decision.vars;
  eval_options.identities = decision.identities;
  eval_options.fallbacks = decision.fallbacks;
  eval_options.node_groups = profile::node_groups(recording.header, dependencies, decision.nodes);
  const eval::Evaluator evaluator(decision.folded, decision.nodes, eval_options);

  profile::Options profile_options;
  profile_options.min_share = options.min_share_percent / 100;
  profile_options.sort_node = options.sort_node;
  profile::Profile profile =
      profile::analyse(recording, std::move(attribution), evaluator, dependencies, profile_options);
  std::vector<std::string> warnings = decision.warnings;
  for (auto& warning : recording_warnings(recording, options.file)) warnings.push_back(std::move(warning));
  profile.whole.evaluation.warnings.insert(profile.whole.evaluation.warnings.end(), warnings.begin(), warnings.end());

  std::vector<report::Report> reports = {function_report(profile.whole, profile, recording, model, options)};
  for (const auto& function : profile.functions) {
    if (function.hot || options.report.verbose) {
      reports.push_back(function_report(function, profile, recording, model, options));
    }
  }
  for (const auto& [tree, functions] : call_stack_trees(recording, options, evaluator, dependencies, profile_options)) {
    for (const auto& function : functions) {
      if (function.hot || options.report.verbose || tree == "callers") {
        reports.push_back(function_report(function, profile, recording, model, options, tree));
      }
    }
  }
  report::Layout layout = report_layout(options.report, false, true);
  layout.sampled = true;
  report::ReportWriter writer(layout);
  std::string out = writer.write(std::nullopt, reports);
  switch (layout.format) {
    case report::Format::Csv:
      out += locate_csv(profile.locate, recording);
      break;
    case report::Format::Json:
      out += locate_json(profile.locate, recording);
      break;
    default:
      out += locate_text(profile.locate, recording);
  }
  if (!options.pprof.empty()) {
    pprof::write_pprof(options.pprof, recording, profile,
                       {fmt::format("{}: {}", model.name, model.title), options.file});
  }
  emit(options.report.output, out);
  // The page lists the whole program and each function in one table, each
  // with its tree, and draws the flame graph of the stacks.
  html.add(std::nullopt, reports);
  html.set_flame_graph([&] { return profile::flame_graph(recording, evaluator, dependencies, profile_options); });
  html.commit(decision.vars);
  return 0;
}

}  // namespace topdown::cli
