// A recording profiled as topdown report profiles it (profile_file.h).
#include "cli/profile_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "cli/context.h"
#include "common/error.h"
#include "common/printable.h"
#include "common/strings.h"
#include "events/model_resolver.h"
#include "profile/attribute.h"
#include "profile/call_stacks.h"
#include "profile/name_samples.h"
#include "profile/sample_survey.h"
#include "recording/core_types.h"
#include "recording/data_file.h"
#include "recording/perf_script.h"
#include "symbols/symbolizer.h"

namespace topdown::cli {
namespace {

// What a recording's file says of the machine, as import's decision reads it.
// (Written without `import` at the start of a line, which clang-format takes
// for C++20's module import.)
auto file_facts(const recording::Recording& recording, bool header_known) -> import::FileInfo {
  auto file = import::FileInfo{};
  if (header_known) {
    file.smt_enabled = recording.header.smt_enabled;
    file.online_cpus = recording.header.cpus_online;
  }
  return file;
}

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
  run.describe_model(model);
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

// The model of a data file: the one it was recorded with (a model name, or
// the file given to record --model), unless --cpu or --model says otherwise.
model::Model recorded_model(const ProfileOptions& options, const std::string& recorded) {
  if (!options.cpu.empty() || !options.model_file.empty() || recorded.empty()) {
    return choose_model(cpu::read_cpuid(), options.cpu, "", options.model_file);
  }
  const bool is_path = recorded.find('/') != std::string::npos || recorded.ends_with(".model");
  if (is_path && !std::filesystem::exists(recorded)) {
    throw Error(fmt::format("{} was recorded with the model {}, which is gone: give it again with --model FILE",
                            options.file, recorded));
  }
  return is_path ? choose_model(cpu::read_cpuid(), "", "", recorded)
                 : choose_model(cpu::read_cpuid(), recorded, "", "");
}

// The models of a data file: each core type's of a hybrid CPU's recording
// (unless --cpu or --model says otherwise: then that model's core types),
// else the one it was recorded with.
std::vector<model::Model> recorded_models(const ProfileOptions& options, const recording::Header& header) {
  if (header.core_types.empty() || !options.cpu.empty() || !options.model_file.empty()) {
    return core_type_models(recorded_model(options, header.model), cpu::CpuInfo{}, "");
  }
  std::vector<model::Model> models;
  for (const recording::CoreType& type : header.core_types) models.push_back(recorded_model(options, type.model));
  return models;
}

// Names the samples of topdown's own data file through the processes'
// mappings, and passes the symbolizer's warnings on. A first pass finds what
// needs reading: the DWARF of the files holding samples, the kernel
// functions at the addresses met.
void symbolize(recording::Recording& recording) {
  symbols::Symbolizer symbolizer;
  const profile::SampleSurvey survey = profile::survey_samples(recording, symbolizer);
  symbolizer.restart();
  symbolizer.read_dwarf_of(survey.files_holding(profile::kDwarfShare));
  symbolizer.expect_kernel_addresses(survey.kernel_addresses);
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

// `notes`: warnings of the file for the whole program's report.
std::unique_ptr<CoreTypeProfile> profile_core_type(recording::CoreTypeRecording part, model::Model model,
                                                   const ProfileOptions& options, bool header_known,
                                                   const std::vector<std::string>& notes) {
  auto typed = std::make_unique<CoreTypeProfile>();
  CoreTypeProfile& p = *typed;
  p.type = std::move(part.type);
  p.recording = std::move(part.recording);
  p.model = std::move(model);
  const events::Resolver resolver(events::offline_resolver_config(p.model));
  profile::Attribution attribution = profile::attribute(p.recording);
  // A recording holds all report knows of its machine: no --topology or --retire-latencies.
  p.decision = settings::decide_import(decision_options(options), settings::MeasuredMachine{}, p.model, resolver,
                                       file_facts(p.recording, header_known), attribution.whole.counts);
  p.dependencies.emplace(p.decision.folded, p.decision.identities, p.decision.fallbacks);
  eval::Options eval_options;
  eval_options.vars = p.decision.vars;
  eval_options.identities = p.decision.identities;
  eval_options.fallbacks = p.decision.fallbacks;
  eval_options.node_groups = profile::node_groups(p.recording.header, *p.dependencies, p.decision.nodes);
  p.evaluator.emplace(p.decision.folded, p.decision.nodes, eval_options);

  p.profile_options.min_share = options.min_share_percent / 100;
  p.profile_options.sort_node = options.sort_node;
  p.profile = profile::analyse(p.recording, std::move(attribution), *p.evaluator, *p.dependencies, p.profile_options);
  std::vector<std::string> warnings = p.decision.warnings;
  for (auto& warning : recording_warnings(p.recording, options.file)) warnings.push_back(std::move(warning));
  warnings.insert(warnings.end(), notes.begin(), notes.end());
  auto& whole_warnings = p.profile.whole.evaluation.warnings;
  whole_warnings.insert(whole_warnings.end(), warnings.begin(), warnings.end());

  p.reports.push_back(function_report(p.profile.whole, p.profile, p.recording, p.model, options));
  for (const auto& function : p.profile.functions) {
    if (function.hot || options.report.verbose) {
      p.reports.push_back(function_report(function, p.profile, p.recording, p.model, options));
    }
  }
  for (const auto& [tree, functions] :
       call_stack_trees(p.recording, options, *p.evaluator, *p.dependencies, p.profile_options)) {
    for (const auto& function : functions) {
      if (function.hot || options.report.verbose || tree == "callers") {
        p.reports.push_back(function_report(function, p.profile, p.recording, p.model, options, tree));
      }
    }
  }
  for (report::Report& report : p.reports) report.core_type = p.type.core_type;
  return typed;
}

// Each core type's share of the cycles: its whole program's deltas of its
// model's clock event (unhalted cycles) over every type's. Not of the
// samples: each type samples at its own rate per group (-F) or per its own
// leader's events (-c) and has its own number of groups, so sample counts
// do not compare across types. Unknown unless every type sampled its clock.
void set_core_shares(std::vector<std::unique_ptr<CoreTypeProfile>>& types) {
  double total = 0;
  for (const auto& type : types) {
    if (lowercase(type->profile.clock_event) != lowercase(type->model.clock)) return;
    total += type->profile.whole.function.clock;
  }
  if (total <= 0) return;
  for (auto& type : types) {
    for (report::Report& report : type->reports) report.core_share = type->profile.whole.function.clock / total;
  }
}

// Each core type's models' parts of the recording; a part whose PMU none of
// `models` counts on (--cpu of one core type) is left out, with a warning.
std::vector<std::unique_ptr<CoreTypeProfile>> profile_core_types(recording::Recording recording,
                                                                 const std::vector<model::Model>& models,
                                                                 const ProfileOptions& options, bool header_known) {
  std::vector<recording::CoreTypeRecording> parts = recording::split_by_core_type(std::move(recording));
  std::vector<const model::Model*> part_models;
  std::vector<std::string> left_out;
  for (const recording::CoreTypeRecording& part : parts) {
    const auto model = std::find_if(models.begin(), models.end(), [&](const model::Model& candidate) {
      return part.type.pmu.empty() || candidate.pmu == part.type.pmu;
    });
    part_models.push_back(model == models.end() ? nullptr : &*model);
    if (model == models.end()) left_out.push_back(part.type.core_type);
  }
  if (left_out.size() == parts.size()) {
    throw Error(
        fmt::format("{}: its samples are of the {}, and model {} counts on none of them; leave out --cpu "
                    "and --model, or give the model of one of them",
                    options.file, join(left_out, " and "), models.front().name));
  }
  std::vector<std::string> notes;
  if (!left_out.empty()) {
    notes.push_back(fmt::format("{}: the samples of the {} are left out: model {} does not count on them", options.file,
                                join(left_out, " and "), models.front().name));
  }
  std::vector<std::unique_ptr<CoreTypeProfile>> types;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!part_models[i]) continue;
    types.push_back(profile_core_type(std::move(parts[i]), *part_models[i], options, header_known, notes));
    notes.clear();  // the file's: once
  }
  return types;
}

}  // namespace

ProfiledFile profile_file(const ProfileOptions& options) {
  if (!(options.min_share_percent >= 0 && options.min_share_percent <= 100)) {  // NaN too
    throw Error(fmt::format("--min-share {}: give a percentage from 0 to 100", options.min_share_percent));
  }
  // topdown's own data file says its model(s), SMT and online CPUs in its
  // header; perf script text says none of these.
  const bool header_known = recording::is_data_file(options.file);
  recording::Recording recording;
  std::vector<model::Model> models;
  if (header_known) {
    recording = recording::read_data_file(options.file);
    models = recorded_models(options, recording.header);
    symbolize(recording);
  } else {
    const cpu::CpuInfo cpu = detect_cpu("", cpu::CounterCheck::Skip);  // perf script is read where it was recorded
    models = core_type_models(choose_model(cpu.id, options.cpu, "", options.model_file), cpu, "");
    std::vector<events::Resolver> resolvers;
    resolvers.reserve(models.size());  // the script models point into it
    std::vector<recording::ScriptModel> script_models;
    for (const model::Model& model : models) {
      script_models.push_back({model, resolvers.emplace_back(events::offline_resolver_config(model))});
    }
    recording = recording::read_perf_script(options.file, script_models);
  }
  const bool hybrid = !recording.header.core_types.empty();
  const std::string counting = fmt::format("{} samples{}, {} lost{}", recording.samples.size(),
                                           header_known ? " (topdown record)" : " (perf script)",
                                           recording.lost_samples, recording.truncated ? ", file cut short" : "");
  std::vector<std::unique_ptr<CoreTypeProfile>> types =
      profile_core_types(std::move(recording), models, options, header_known);
  if (hybrid) set_core_shares(types);

  ProfiledFile file;
  file.header_known = header_known;
  file.hybrid = hybrid;
  file.counting = counting;
  file.types = std::move(types);
  return file;
}

}  // namespace topdown::cli
