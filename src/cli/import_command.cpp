#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "cli/render.h"
#include "cli/unit_reports.h"
#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "import/import.h"
#include "report/report.h"
#include "schedule/plan.h"

namespace topdown::cli {
namespace {

// Evaluates the samples of one file with one model. The first sample decides
// the run variables, the nodes and their identities, so that every interval
// (and every CPU, core, socket or thread) is reported alike.
class FileAnalysis {
 public:
  explicit FileAnalysis(const ImportOptions& options)
      : options_(options),
        model_(choose_model(cpu::read_cpuid(), options.cpu, options.metrics_file)),
        resolver_(events::offline_resolver_config(model_)),
        matcher_(model_, resolver_),
        view_(view_of(options.per)) {}

  bool per_unit() const { return view_ != aggregate::View::Global; }

  // The report of one interval (or the whole file): one, or one per unit of
  // --per-thread/--per-core/--per-socket. CSV has its header only when
  // `first`.
  std::string report(const import::Interval& interval, const import::FileInfo& file, bool first) {
    if (!decided_) decide(file, matcher_.translate(interval.sample, file.events).sample);
    if (!per_unit()) return render(interval, file, first);
    if (interval.places.empty()) {
      throw Error(fmt::format("{} has no rows per CPU, core, socket or thread; {} needs perf stat -A (or perf's "
                              "--per-core, --per-socket, --per-thread) output",
                              options_.file, aggregate::view_name(view_)));
    }
    aggregate::Aggregation units;
    try {
      units = aggregate::aggregate(interval.places, request(file, interval.places));
    } catch (const ParseError&) {
      throw;  // names the topology file already
    } catch (const Error& error) {
      throw Error(options_.file + ": " + error.what());
    }
    unit_warnings_ = units.warnings;
    UnitRecord record;
    record.with_header = first;
    record.in_stream = options_.per_interval;
    record.time_s = interval.time_s;
    return render_units(options_.report, units.units,
                        [&](const aggregate::Unit& unit) { return evaluate(unit.sample, file); }, record);
  }

 private:
  std::string render(const import::Interval& interval, const import::FileInfo& file, bool with_header) {
    UnitReport whole = evaluate(interval.sample, file);
    if (options_.per_interval) whole.run.interval_time_s = interval.time_s;
    const ReportOptions& report = options_.report;
    if (report.json) return report::render_json(whole.evaluation, whole.sample, whole.run);
    if (report.csv) {
      const std::string csv = report::render_csv(whole.evaluation, whole.sample, whole.run);
      if (options_.per_interval) return report::csv_with_time(csv, *interval.time_s, with_header);
      return with_header ? csv : csv.substr(csv.find('\n') + 1);
    }
    return render_report(report, whole.evaluation, whole.sample, whole.run);
  }

  UnitReport evaluate(const counts::Sample& file_sample, const import::FileInfo& file) {
    import::EventMatcher::Translation counts = matcher_.translate(file_sample, file.events);
    eval::Evaluation evaluation = evaluator_->evaluate(counts.sample);
    evaluation.warnings.insert(evaluation.warnings.end(), warnings_.begin(), warnings_.end());
    evaluation.warnings.insert(evaluation.warnings.end(), unit_warnings_.begin(), unit_warnings_.end());
    report::RunInfo run;
    run.model_name = model_.name;
    run.model_title = model_.title;
    run.source = options_.file;
    run.elapsed_s = counts.sample.duration_s;
    run.multiplexed = evaluation.counted_share < 1;
    run.extra_events = counts.unmatched;
    return {std::move(evaluation), std::move(counts.sample), std::move(run)};
  }

  aggregate::Request request(const import::FileInfo& file, const std::vector<counts::Place>& places) {
    aggregate::Request request;
    request.view = view_;
    if (!topology_decided_) {
      topology_decided_ = true;
      for (const std::string& event : file.events) {
        if (resolver_.knows(event) && resolver_.resolve(event).percore) core_wide_events_.insert(event);
      }
      load_topology(places);
    }
    request.topology = topology_ ? &*topology_ : nullptr;
    request.core_wide_events = core_wide_events_;
    return request;
  }

  // Per-CPU rows need the measured machine's topology to be grouped by core
  // or socket: --topology, else this machine's when the file is from here.
  void load_topology(const std::vector<counts::Place>& places) {
    if (!options_.topology.empty()) {
      topology_ = aggregate::Topology::read_lscpu(options_.topology);
      return;
    }
    const bool per_cpu = aggregate::kind_of_label(places.front().label) == aggregate::PlaceKind::Cpu;
    const bool needs_topology = view_ != aggregate::View::Thread || !core_wide_events_.empty();
    if (!per_cpu || !needs_topology || !model_.matches(cpu::read_cpuid())) return;
    topology_ = aggregate::Topology::read_sysfs();
    warnings_.push_back(fmt::format("no --topology: the CPUs are grouped as on this machine ({} CPUs in /sys), "
                                    "assuming {} was counted here; give the measured machine's `lscpu "
                                    "-p=CPU,CORE,SOCKET` output with --topology FILE otherwise",
                                    topology_->size(), options_.file));
  }

  void decide(const import::FileInfo& file, const counts::Sample& sample) {
    decided_ = true;
    vars_.ebs_mode = file.ebs_mode.value_or(false);
    vars_.online_cpus = file.online_cpus.value_or(0);
    vars_.perf_metrics = options_.perf_metrics.empty() ? file.perf_metrics.value_or(has_topdown_metrics(sample))
                                                       : options_.perf_metrics == "on";
    if (!options_.smt.empty()) {
      vars_.smt_enabled = options_.smt == "on";
    } else if (file.smt_enabled) {
      vars_.smt_enabled = *file.smt_enabled;
    } else {
      warnings_.push_back("the file does not say whether SMT was on; assumed off (--smt on|off says it)");
    }
    if (!file.repeated_events.empty()) {
      warnings_.push_back(fmt::format("{} has more than one row per interval of {} (counted by several groups): "
                                      "each event's rows are pooled into one count, not added",
                                      options_.file, fmt::join(file.repeated_events, ", ")));
    }
    schedule::Selection selection;
    selection.max_level = options_.report.level;
    selection.all_info = options_.all_info;
    nodes_ = schedule::select_nodes(model_, selection);
    identities_ = import::identities_for(model_, vars_, nodes_, sample);
    const import::FallbackChoice fallbacks = import::fallbacks_for(model_, vars_, identities_, sample);
    fallbacks_ = fallbacks.nodes;
    if (!fallbacks_.empty()) {
      warnings_.push_back(fmt::format("{} lacks {}: without them the model's fallback formulas give {}, as "
                                      "approximations (marked ~); count them too for the model's values "
                                      "(topdown stat --print-perf)",
                                      options_.file, fmt::join(fallbacks.missing_events, ", "),
                                      fmt::join(fallbacks_, ", ")));
    }
    if (!options_.all_info) {
      // Like stat's Info metrics that ride along: those the file has the events for.
      for (auto& metric : import::info_metrics_counted(model_, vars_, identities_, sample)) {
        nodes_.push_back(std::move(metric));
      }
    }
    eval::Options eval_options;
    eval_options.vars = vars_;
    eval_options.identities = identities_;
    eval_options.fallbacks = fallbacks_;
    evaluator_.emplace(model_, nodes_, eval_options);
  }

  bool has_topdown_metrics(const counts::Sample& sample) const {
    return std::any_of(sample.events.begin(), sample.events.end(),
                       [&](const auto& entry) {
                         const std::string& event = entry.first.event;
                         return resolver_.knows(event) && resolver_.resolve(event).topdown_metric;
                       });
  }

  const ImportOptions& options_;
  model::Model model_;
  events::Resolver resolver_;
  import::EventMatcher matcher_;
  model::RunVariables vars_;
  model::IdentityChoice identities_;
  model::FallbackChoice fallbacks_;
  bool decided_ = false;
  std::vector<std::string> nodes_;
  std::optional<eval::Evaluator> evaluator_;  // prepared once the first interval decided the run
  std::vector<std::string> warnings_;
  aggregate::View view_;
  bool topology_decided_ = false;
  std::optional<aggregate::Topology> topology_;
  std::set<std::string, std::less<>> core_wide_events_;
  std::vector<std::string> unit_warnings_;  // of the latest aggregation
};

void report_per_interval(const ImportOptions& options, FileAnalysis& analysis) {
  ReportSink sink(options.report.output);
  bool first = true;
  import::ReadOptions read_options;
  read_options.per_interval = true;
  read_options.per_place = analysis.per_unit();
  import::read_file(options.file, read_options, [&](const import::Interval& interval, const import::FileInfo& file) {
    if (!interval.time_s) {
      throw Error(options.file + " has no intervals (perf stat -I); leave out --per-interval");
    }
    std::string text = analysis.report(interval, file, first);
    if (!options.report.csv && !options.report.json) text = stream_heading(*interval.time_s, first) + text;
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
  import::ReadOptions read_options;
  read_options.per_place = analysis.per_unit();
  import::read_file(options.file, read_options, [&](const import::Interval& whole, const import::FileInfo& file) {
    text = analysis.report(whole, file, true);
  });
  emit(options.report.output, text);
  return 0;
}

}  // namespace topdown::cli
