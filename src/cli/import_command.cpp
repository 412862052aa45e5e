#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/core_type_record.h"
#include "cli/html_output.h"
#include "cli/output.h"
#include "cli/output_paths.h"
#include "cli/render.h"
#include "common/strings.h"
#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "import/hybrid.h"
#include "import/import.h"
#include "import/runs.h"
#include "report/report.h"
#include "settings/import.h"

namespace topdown::cli {
namespace {

// Evaluates the samples of one file with one model. The first sample decides
// the run variables, the nodes and their identities, so that every interval
// (and every CPU, core, socket or thread) is reported alike.
class FileAnalysis {
 public:
  // `arm_core_pmus`: those of the machine that counted the file, when known
  // (import::EventMatcher).
  FileAnalysis(const ImportOptions& options, const settings::MeasuredMachine& measured, model::Model model,
               const std::vector<std::string>& arm_core_pmus)
      : options_(options),
        measured_(measured),
        model_(std::move(model)),
        resolver_(events::offline_resolver_config(model_)),
        matcher_(model_, resolver_, arm_core_pmus) {}

  bool per_unit() const { return options_.per != aggregate::View::Global; }
  const model::Model& model() const { return model_; }
  // As decided by the first sample; nullptr before it.
  const model::RunVariables* vars() const { return decision_ ? &decision_->vars : nullptr; }

  // The reports of one interval (or the whole file): one, or one per unit of
  // --per-thread/--per-core/--per-socket. Valid until the next call, which
  // writes over them: a stream of intervals reuses their memory.
  const std::vector<report::Report>& reports(const import::Interval& interval, const import::FileInfo& file) {
    settings::check_interval(options_, interval);
    import::EventMatcher::Translation& whole = translation_;
    matcher_.translate(interval.sample, file.events, whole);
    std::vector<counts::Sample> runs;
    for (const counts::Sample& run : interval.runs) runs.push_back(matcher_.translate(run, file.events).sample);
    std::vector<int> runs_without_clock;
    if (!runs.empty()) {
      import::ClockJoin joined = import::join_through_clock(whole.sample, runs, model_.clock);
      whole.sample = std::move(joined.rates);
      runs_without_clock = std::move(joined.runs_without_clock);
    }
    if (!decision_) prepare(file, whole.sample, runs, runs_without_clock);
    if (!runs.empty()) whole.sample = import::with_run_copies(whole.sample, runs);
    if (!per_unit()) {
      reports_.resize(1);
      evaluate("", whole, reports_[0]);
      return reports_;
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
    // The same events every interval: the nodes they reach are found once.
    if (units.socket_wide_events != socket_wide_events_) {
      socket_wide_events_ = units.socket_wide_events;
      socket_wide_nodes_ = socket_wide_nodes(socket_wide_events_);
    }
    const std::set<std::string>& socket_wide = socket_wide_nodes_;
    reports_.resize(units.units.size());
    for (size_t i = 0; i < units.units.size(); ++i) {
      matcher_.translate(units.units[i].sample, file.events, translation_);
      evaluate(units.units[i].label, translation_, reports_[i]);
      for (eval::NodeResult& node : reports_[i].evaluation.nodes)
        node.socket_wide = socket_wide.count(node.node->name) > 0;
    }
    return reports_;
  }

 private:
  // Decides the run variables, nodes, identities and fallbacks from the
  // first sample, and, for a file of several runs, the run each node is
  // computed from (import/runs.h).
  void prepare(const import::FileInfo& file, const counts::Sample& sample, const std::vector<counts::Sample>& runs,
               const std::vector<int>& runs_without_clock) {
    decision_ = settings::decide_import(options_, measured_, model_, resolver_, file, sample);
    eval::Options eval_options;
    eval_options.vars = decision_->vars;
    eval_options.identities = decision_->identities;
    eval_options.fallbacks = decision_->fallbacks;
    dependencies_.emplace(decision_->folded, decision_->identities, decision_->fallbacks);
    if (!runs.empty()) {
      import::RunChoice choice = import::choose_runs(*dependencies_, decision_->nodes, runs);
      eval_options.node_groups = std::move(choice.node_runs);
      split_over_runs_ = std::move(choice.split);
      run_warnings_ = settings::run_warnings(options_, file, split_over_runs_, {model_.clock, runs_without_clock});
    }
    evaluator_.emplace(decision_->folded, decision_->nodes, eval_options);
  }

  // The nodes whose value or threshold needs an event of the file that
  // aggregation gave each unit from its socket's count.
  std::set<std::string> socket_wide_nodes(const std::set<std::string, std::less<>>& file_events) const {
    std::set<std::string> model_events;
    for (const std::string& file_event : file_events) {
      const std::vector<std::string>& targets = matcher_.targets(file_event);
      model_events.insert(targets.begin(), targets.end());
    }
    std::set<std::string> nodes;
    if (model_events.empty()) return nodes;
    for (const std::string& node : decision_->nodes) {
      const std::set<std::string>& needs = dependencies_->events_of(node);
      if (std::any_of(needs.begin(), needs.end(), [&](const std::string& event) { return model_events.count(event); }))
        nodes.insert(node);
    }
    return nodes;
  }

  // Into `report`, assigned member by member so that its strings, vectors
  // and the sample's map keep their memory.
  void evaluate(const std::string& scope, const import::EventMatcher::Translation& counts, report::Report& report) {
    eval::Evaluation evaluation = evaluator_->evaluate(counts.sample);
    // Computed from several runs, each a different execution: a lesser value, like a fallback's.
    for (eval::NodeResult& node : evaluation.nodes) {
      const bool split =
          std::find(split_over_runs_.begin(), split_over_runs_.end(), node.node->name) != split_over_runs_.end();
      if (split && node.value) node.approximate = node.from_run_rates = true;
    }
    evaluation.warnings.insert(evaluation.warnings.end(), run_warnings_.begin(), run_warnings_.end());
    const std::vector<std::string>& decided = decision_->warnings;
    evaluation.warnings.insert(evaluation.warnings.end(), decided.begin(), decided.end());
    evaluation.warnings.insert(evaluation.warnings.end(), topology_warnings_.begin(), topology_warnings_.end());
    evaluation.warnings.insert(evaluation.warnings.end(), unit_warnings_.begin(), unit_warnings_.end());
    report::RunInfo& run = report.run;
    run.describe_model(model_);
    run.source = options_.file;
    run.elapsed_s = counts.sample.duration_s;
    run.multiplexed = evaluation.counted_share < 1;
    run.extra_events = counts.unmatched;
    report.scope = scope;
    report.evaluation = std::move(evaluation);
    report.sample = counts.sample;
  }

  aggregate::Request request(const import::FileInfo& file, const std::vector<counts::Place>& places) {
    if (!topology_decided_) {
      topology_decided_ = true;
      core_wide_events_ = settings::core_wide_events(file.events, resolver_);
      load_topology(places);
    }
    aggregate::Request request;
    request.view = options_.per;
    request.topology = topology_ ? &*topology_ : nullptr;
    request.core_wide_events = core_wide_events_;
    return request;
  }

  void load_topology(const std::vector<counts::Place>& places) {
    switch (settings::import_topology_source(options_, places, !core_wide_events_.empty(),
                                             model_.matches(cpu::read_cpuid()))) {
      case settings::TopologySource::File:
        topology_ = measured_.topology;
        break;
      case settings::TopologySource::ThisMachine:
        topology_ = aggregate::Topology::read_sysfs();
        topology_warnings_.push_back(settings::this_machine_topology_warning(topology_->size(), options_));
        break;
      case settings::TopologySource::None:
        break;
    }
  }

  const ImportOptions& options_;
  const settings::MeasuredMachine& measured_;
  model::Model model_;
  events::Resolver resolver_;
  import::EventMatcher matcher_;
  std::optional<settings::ImportDecision> decision_;  // by the first sample
  std::optional<model::Dependencies> dependencies_;   // of the decision's formulas
  std::optional<eval::Evaluator> evaluator_;          // prepared with the decision, for every interval and unit
  bool topology_decided_ = false;
  std::optional<aggregate::Topology> topology_;
  std::set<std::string, std::less<>> core_wide_events_;
  std::vector<std::string> topology_warnings_;
  std::set<std::string, std::less<>> socket_wide_events_;  // of the latest aggregation
  std::set<std::string> socket_wide_nodes_;                // the nodes those events reach
  std::vector<std::string> unit_warnings_;                 // of the latest aggregation
  std::vector<std::string> split_over_runs_;               // nodes computed from the rates of several runs
  std::vector<std::string> run_warnings_;
  import::EventMatcher::Translation translation_;  // of the latest sample, reused
  std::vector<report::Report> reports_;            // of the latest interval, reused
};

// The analyses of one file: one model's, or, for a hybrid CPU's file (rows
// cpu_core/EVENT/ and cpu_atom/EVENT/, and cpu_lowpower/EVENT/ on a CPU
// with a third core type (Arrow Lake-H); an Arm big.LITTLE system's
// armv8_pmuv3_0/EVENT/, armv8_pmuv3_1/EVENT/), the model of each core type
// it counts on with that type's rows (import/hybrid.h).
class CoreTypeAnalyses {
 public:
  explicit CoreTypeAnalyses(const ImportOptions& options)
      : CoreTypeAnalyses(options, detect_cpu(options.root, cpu::CounterCheck::Skip)) {}

  const model::Model& model() const { return models_.front(); }
  // Every core type's model, P-cores first (the one model's for a CPU of one kind).
  std::vector<const model::Model*> models() const {
    std::vector<const model::Model*> models;
    for (const model::Model& model : models_) models.push_back(&model);
    return models;
  }
  // The run facts of each of models(), as its file's rows decided them
  // (default ones for a model none of the file's rows were evaluated with).
  std::vector<model::RunVariables> vars() const {
    std::vector<model::RunVariables> vars(models_.size());
    for (const CoreType& type : analyses_) {
      const auto model = std::find_if(models_.begin(), models_.end(), [&](const model::Model& candidate) {
        return candidate.name == type.analysis->model().name;
      });
      if (model != models_.end() && type.analysis->vars()) {
        vars[static_cast<size_t>(model - models_.begin())] = *type.analysis->vars();
      }
    }
    return vars;
  }
  bool per_unit() const { return options_.per != aggregate::View::Global; }

  // The reports of one interval (or the whole file): those of every core
  // type the task ran on in it, each with its share of the cycles. Valid
  // until the next call.
  const std::vector<report::Report>& reports(const import::Interval& interval, const import::FileInfo& file) {
    if (analyses_.empty()) decide(file);
    if (core_pmus_.empty()) return analyses_.front().analysis->reports(interval, file);
    const bool ran_anywhere = std::any_of(analyses_.begin(), analyses_.end(),
                                          [&](const CoreType& type) { return import::ran_on(interval, type.pmu); });
    CoreTypeRecord record(ran_anywhere, options_.report.columns);
    for (CoreType& type : analyses_) {
      const bool ran = import::ran_on(interval, type.pmu);
      if (!record.shows(ran)) continue;
      record.add(type.analysis->reports(import::core_type_interval(interval, type.pmu, core_pmus_),
                                        import::core_type_file(file, type.pmu, core_pmus_)),
                 type.analysis->model(), ran);
    }
    core_type_reports_ = record.take(!per_unit());
    return core_type_reports_;
  }

  bool hybrid() const { return !core_pmus_.empty(); }

 private:
  CoreTypeAnalyses(const ImportOptions& options, const cpu::CpuInfo& cpu)
      : options_(options),
        models_(core_type_models(choose_model(cpu.id, options.cpu, options.metrics_file, options.model_file), cpu,
                                 options.metrics_file)),
        measured_(settings::read_measured_machine(options)),
        arm_core_pmus_(counting_arm_core_pmus(cpu, models_.front())) {}

  // The Arm core PMUs the probe found, when the file is taken to be this
  // machine's (or --root's): its model is this CPU's. A file imported with
  // another CPU's model came from elsewhere, its PMUs known by name alone.
  static std::vector<std::string> counting_arm_core_pmus(const cpu::CpuInfo& cpu, const model::Model& model) {
    std::vector<std::string> names;
    if (!model.runs_on(cpu)) return names;
    for (const cpu::PmuInfo& pmu : cpu.arm_core_pmus()) names.push_back(pmu.name);
    return names;
  }

  struct CoreType {
    std::string pmu;  // empty: the file of a CPU with one kind of core
    std::unique_ptr<FileAnalysis> analysis;
  };

  // Decided by the names of the file's first interval.
  void decide(const import::FileInfo& file) {
    core_pmus_ = import::core_pmus_of(file.events, arm_core_pmus_);
    if (core_pmus_.empty()) {
      analyses_.push_back({"", std::make_unique<FileAnalysis>(options_, measured_, models_.front(), arm_core_pmus_)});
      return;
    }
    for (const model::Model& model : models_) {
      if (std::find(core_pmus_.begin(), core_pmus_.end(), model.pmu) == core_pmus_.end()) continue;
      analyses_.push_back({model.pmu, std::make_unique<FileAnalysis>(options_, measured_, model, arm_core_pmus_)});
    }
    if (analyses_.empty() && model().cpus.front().vendor == cpu::Vendor::Arm) {
      throw Error(options_.file + ": its rows are counted on " + join(core_pmus_, " and ") +
                  ", the core PMUs of a big.LITTLE system, and which kind of core each counts on is that "
                  "machine's to tell: import there, or give a copy of its /sys as DIR/sys with --root DIR");
    }
    if (analyses_.empty()) {
      throw Error(options_.file + ": its rows are counted on " + join(core_pmus_, " and ") +
                  ", the core types of a hybrid CPU, and model " + model().name +
                  " counts on neither; use --cpu with the P-core model of that CPU, such as --cpu adl");
    }
  }

  const ImportOptions& options_;
  std::vector<model::Model> models_;        // this CPU's, --cpu's or --model's: each core type's
  settings::MeasuredMachine measured_;      // the FileAnalyses point at it
  std::vector<std::string> arm_core_pmus_;  // counting_arm_core_pmus
  std::vector<std::string> core_pmus_;
  std::vector<CoreType> analyses_;
  std::vector<report::Report> core_type_reports_;  // of the latest interval, for a hybrid CPU's file
};

}  // namespace

void import_records(const ImportOptions& options, const std::function<void(std::string_view)>& write) {
  CoreTypeAnalyses analysis(options);
  std::optional<report::ReportWriter> writer;  // laid out once the first interval tells the core types
  import::ReadOptions read_options;
  read_options.per_interval = options.per_interval;
  read_options.per_place = analysis.per_unit();
  HtmlOutput html(options.report, analysis.models(), counting_words(options));
  const auto write_interval = [&](const import::Interval& interval, const import::FileInfo& file) {
    const auto& reports = analysis.reports(interval, file);
    if (!writer) {
      report::Layout layout = report_layout(options.report, options.per_interval, analysis.per_unit());
      layout.core_typed = analysis.hybrid();
      writer.emplace(layout);
    }
    write(writer->write(interval.time_s, reports));
    html.add(options.per_interval ? interval.time_s : std::nullopt, reports);
  };
  import::read_file(options.file, read_options, write_interval);
  if (html && options.per_interval) {
    // The page's tree is the whole file's, which a stream of intervals
    // does not give: read it once more, summed.
    const auto add_whole_file = [&](const import::Interval& whole, const import::FileInfo& file) {
      html.add(std::nullopt, analysis.reports(whole, file));
    };
    read_options.per_interval = false;
    import::read_file(options.file, read_options, add_whole_file);
  }
  html.commit(analysis.vars());
}

int run_import(const ImportOptions& options) {
  check_outputs_apart({{"the import file", options.file},
                       {"the file of --metrics-file", options.metrics_file},
                       {"the file of --retire-latencies", options.retire_latencies},
                       {"the file of --topology", options.topology}},
                      {{"-o", options.report.output}, {"--html", options.report.html}});
  // Each interval is written as the file is read (the whole file's report
  // once it is read to the end); the output file and the page appear at the end.
  ReportSink sink(options.report.output);
  import_records(options, [&](std::string_view text) { sink.write(text); });
  sink.commit();
  return 0;
}

}  // namespace topdown::cli
