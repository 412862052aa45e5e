#include <algorithm>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/render.h"
#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "import/import.h"
#include "report/report.h"
#include "schedule/plan.h"

namespace topdown::cli {
namespace {

// The CSV report of one interval: a leading time column, the header only once.
std::string csv_for_interval(const std::string& csv, double time, bool with_header) {
  std::string out;
  size_t start = 0;
  for (bool header = true; start < csv.size(); header = false) {
    const size_t end = std::min(csv.find('\n', start), csv.size());
    const std::string_view line(csv.data() + start, end - start);
    if (!header) out += fmt::format("{},{}\n", time, line);
    else if (with_header) out += fmt::format("time,{}\n", line);
    start = end + 1;
  }
  return out;
}

// Evaluates the samples of one file with one model. The first sample decides
// the run variables, the nodes and their identities, so that every interval
// is reported alike.
class FileAnalysis {
 public:
  explicit FileAnalysis(const ImportOptions& options)
      : options_(options),
        model_(model::select_model(model::default_model_dir(), cpu::read_cpuid(), options.cpu)),
        resolver_(events::offline_resolver_config(model_)),
        matcher_(model_, resolver_) {}

  std::string report(const import::Interval& interval, const import::FileInfo& file) {
    import::EventMatcher::Translation counts = matcher_.translate(interval.sample, file.events);
    if (!decided_) decide(file, counts.sample);
    eval::Options eval_options;
    eval_options.vars = vars_;
    eval_options.identities = identities_;
    eval::Evaluation evaluation = eval::evaluate(model_, nodes_, counts.sample, eval_options);
    evaluation.warnings.insert(evaluation.warnings.end(), warnings_.begin(), warnings_.end());
    report::RunInfo run;
    run.model_name = model_.name;
    run.model_title = model_.title;
    run.source = options_.file;
    if (options_.per_interval) run.interval_time_s = interval.time_s;
    run.elapsed_s = counts.sample.duration_s;
    run.multiplexed = evaluation.counted_share < 1;
    run.extra_events = counts.unmatched;
    return render_report(options_.report, evaluation, counts.sample, run);
  }

 private:
  void decide(const import::FileInfo& file, const counts::Sample& sample) {
    decided_ = true;
    vars_.ebs_mode = file.ebs_mode.value_or(false);
    if (!options_.smt.empty()) {
      vars_.smt_enabled = options_.smt == "on";
    } else if (file.smt_enabled) {
      vars_.smt_enabled = *file.smt_enabled;
    } else {
      warnings_.push_back("the file does not say whether SMT was on; assumed off (--smt on|off says it)");
    }
    schedule::Selection selection;
    selection.max_level = options_.report.level;
    selection.all_info = options_.all_info;
    nodes_ = schedule::select_nodes(model_, selection);
    identities_ = import::identities_for(model_, vars_, nodes_, sample);
    if (!options_.all_info) {
      // Like stat's Info metrics that ride along: those the file has the events for.
      for (auto& metric : import::info_metrics_counted(model_, vars_, identities_, sample)) {
        nodes_.push_back(std::move(metric));
      }
    }
  }

  const ImportOptions& options_;
  model::Model model_;
  events::Resolver resolver_;
  import::EventMatcher matcher_;
  model::RunVariables vars_;
  model::IdentityChoice identities_;
  bool decided_ = false;
  std::vector<std::string> nodes_;
  std::vector<std::string> warnings_;
};

void report_per_interval(const ImportOptions& options, FileAnalysis& analysis) {
  ReportSink sink(options.report.output);
  bool first = true;
  import::ReadOptions read_options;
  read_options.per_interval = true;
  import::read_file(options.file, read_options, [&](const import::Interval& interval, const import::FileInfo& file) {
    if (!interval.time_s) {
      throw Error(options.file + " has no intervals (perf stat -I); leave out --per-interval");
    }
    std::string text = analysis.report(interval, file);
    if (options.report.csv) {
      text = csv_for_interval(text, *interval.time_s, first);
    } else if (!options.report.json) {
      text = fmt::format("{}=== time {} s ===\n{}", first ? "" : "\n", *interval.time_s, text);
    }
    sink.write(text);
    first = false;
  });
  sink.commit();
}

}  // namespace

int run_import(const ImportOptions& options) {
  FileAnalysis analysis(options);
  if (options.per_interval) {
    report_per_interval(options, analysis);
    return 0;
  }
  std::string text;
  import::read_file(options.file, import::ReadOptions{},
                    [&](const import::Interval& whole, const import::FileInfo& file) {
                      text = analysis.report(whole, file);
                    });
  emit(options.report.output, text);
  return 0;
}

}  // namespace topdown::cli
