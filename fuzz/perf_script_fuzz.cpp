// `topdown report` of a perf script file on arbitrary bytes: the reader
// (models/hsw.model's events, its sample events, copies, header groups, lost
// and cut-off lines) and the per-function profile and report that follow.
// Bad files must end in topdown::Error with a one-line message naming the
// file; what is read must be sane: deltas of a sample inside the values,
// shares between 0 and 1, values finite.
#include <cmath>
#include <cstdint>
#include <memory>

#include "common/data_dir.h"
#include "error_message.h"
#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "memory_file.h"
#include "profile/profile.h"
#include "recording/perf_script.h"
#include "report/report.h"
#include "schedule/plan.h"

namespace {

using namespace topdown;

struct Haswell {
  Haswell()
      : model(model::load_model(models_dir() / "hsw.model")),
        resolver(events::offline_resolver_config(model)),
        folded(std::make_shared<const model::FoldedModel>(model, model::RunVariables{})),
        dependencies(folded),
        nodes(schedule::select_nodes(model, schedule::Selection{3, true, {}})) {}

  model::Model model;
  events::Resolver resolver;
  std::shared_ptr<const model::FoldedModel> folded;
  model::Dependencies dependencies;
  std::vector<std::string> nodes;
};

void check(const recording::Recording& recording) {
  for (const auto& sample : recording.samples) {
    if (sample.group >= recording.header.groups.size()) __builtin_trap();
    if (sample.first_value + recording.header.groups[sample.group].events.size() > recording.values.size()) {
      __builtin_trap();
    }
    if (sample.symbol >= recording.symbols.size()) __builtin_trap();
  }
}

void check(const profile::FunctionResult& result) {
  if (!(result.function.share >= 0 && result.function.share <= 1)) __builtin_trap();
  for (const auto& node : result.evaluation.nodes) {
    if (node.value && !std::isfinite(*node.value)) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Haswell haswell;
  const fuzz::MemoryFile file(data, size);
  recording::Recording recording;
  try {
    recording = recording::read_perf_script(file.path(), haswell.model, haswell.resolver);
  } catch (const Error& error) {
    fuzz::check_refusal(error, file.path());
    return 0;
  }
  check(recording);
  eval::Options options;
  options.node_groups = profile::node_groups(recording.header, haswell.dependencies, haswell.nodes);
  const eval::Evaluator evaluator(haswell.folded, haswell.nodes, options);
  const profile::Profile result =
      profile::analyse(recording, profile::attribute(recording), evaluator, haswell.dependencies, {});
  check(result.whole);
  std::vector<report::Report> reports;
  for (const auto& function : result.functions) {
    check(function);
    report::RunInfo run;
    report::Sampled sampled;
    sampled.function = function.function.name;
    sampled.share = function.function.share;
    sampled.node_samples = function.node_samples;
    run.sampled = sampled;
    reports.push_back({function.function.name, function.evaluation, function.function.counts, run});
  }
  if (reports.empty()) return 0;
  for (const report::Format format : {report::Format::Text, report::Format::Csv, report::Format::Json}) {
    report::ReportWriter writer({format, report::TextOptions{true, false}, false, true, true});
    writer.write(std::nullopt, reports);
  }
  return 0;
}
