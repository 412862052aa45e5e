// `topdown import` on arbitrary bytes: read the file whole and per interval,
// then with a model (models/zen5.model or models/hsw.model) match the file's
// events, evaluate every node and render the text, CSV and JSON reports.
// Bad files must end in topdown::Error; values must be numbers or n/a. Slow
// (the model's dependencies are worked out for every file), so the reader on
// its own is import_fuzz.cpp.
#include <cmath>
#include <cstdint>
#include <memory>

#include "common/data_dir.h"
#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "import/import.h"
#include "memory_file.h"
#include "report/report.h"
#include "schedule/plan.h"

namespace {

using namespace topdown;

struct Analysis {
  explicit Analysis(const std::string& file)
      : model(model::load_model(models_dir() / file)),
        resolver(events::offline_resolver_config(model)),
        nodes(schedule::select_nodes(model, schedule::Selection{6, true, {}})) {}

  // `matcher` lives for one file, as in `topdown import`.
  void analyse(import::EventMatcher& matcher, const import::Interval& interval, const import::FileInfo& file) {
    const import::EventMatcher::Translation counts = matcher.translate(interval.sample, file.events);
    eval::Options options;
    options.vars.smt_enabled = file.smt_enabled.value_or(false);
    options.vars.ebs_mode = file.ebs_mode.value_or(false);
    const auto folded = std::make_shared<const model::FoldedModel>(model, options.vars);
    options.identities = import::identities_for(folded, nodes, counts.sample);
    const eval::Evaluation evaluation = eval::Evaluator(folded, nodes, options).evaluate(counts.sample);
    for (const eval::NodeResult& result : evaluation.nodes) {
      if (result.value && !std::isfinite(*result.value)) __builtin_trap();
    }
    report::RunInfo run;
    run.model_name = model.name;
    run.source = "fuzz";
    run.elapsed_s = counts.sample.duration_s;
    run.extra_events = counts.unmatched;
    const std::vector<report::Report> reports{{"", evaluation, counts.sample, run}};
    for (const report::Format format :
         {report::Format::Text, report::Format::Csv, report::Format::Json, report::Format::Columns}) {
      report::ReportWriter writer({format, report::TextOptions{true, false}, interval.time_s.has_value(), false});
      writer.write(interval.time_s, reports);
    }
  }

  model::Model model;
  events::Resolver resolver;
  std::vector<std::string> nodes;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Analysis zen5("zen5.model");
  static Analysis haswell("hsw.model");
  // One model per input keeps the rate up; which one follows from the input,
  // so that a finding reproduces.
  Analysis& analysis = size % 2 == 0 ? zen5 : haswell;
  const fuzz::MemoryFile file(data, size);
  try {
    import::EventMatcher whole_matcher(analysis.model, analysis.resolver);
    import::read_file(file.path(), import::ReadOptions{}, [&](const import::Interval& whole, const import::FileInfo& info) {
      analysis.analyse(whole_matcher, whole, info);
  });
  import::EventMatcher interval_matcher(analysis.model, analysis.resolver);
  import::ReadOptions per_interval;
  per_interval.per_interval = true;
  size_t intervals = 0;
    import::read_file(file.path(), per_interval, [&](const import::Interval& interval, const import::FileInfo& info) {
      // Every interval is read; the first few are enough to analyse.
      if (++intervals <= 2) analysis.analyse(interval_matcher, interval, info);
});
}
catch (const Error&) {
}
return 0;
}
