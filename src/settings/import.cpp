#include "settings/import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "common/error.h"
#include "model/retire_latency_file.h"
#include "schedule/plan.h"
#include "settings/perf_metrics.h"

namespace topdown::settings {
namespace {

bool has_topdown_metrics(const counts::Sample& sample, const events::Resolver& resolver) {
  return std::any_of(sample.events.begin(), sample.events.end(), [&](const auto& entry) {
    const std::string& event = entry.first.event;
    return resolver.knows(event) && resolver.resolve(event).topdown_metric;
  });
}

}  // namespace

MeasuredMachine read_measured_machine(const ImportOptions& options) {
  MeasuredMachine measured;
  if (!options.topology.empty()) measured.topology = aggregate::Topology::read_lscpu(options.topology);
  measured.retire_latencies = model::read_retire_latency_file(options.retire_latencies);
  return measured;
}

ImportDecision decide_import(const ImportOptions& options, const MeasuredMachine& measured, const model::Model& model,
                             const events::Resolver& resolver, const import::FileInfo& file,
                             const counts::Sample& sample) {
  ImportDecision decision;
  model::RunVariables& vars = decision.vars;
  vars.ebs_mode = file.ebs_mode.value_or(false);
  vars.online_cpus = file.online_cpus.value_or(0);
  vars.sockets = file.sockets.value_or(0);
  vars.cores_per_socket = file.cores_per_socket.value_or(0);
  // --topology (the measured machine's lscpu) tells what a perf file cannot say.
  if (measured.topology) {
    if (!file.sockets) vars.sockets = measured.topology->socket_count();
    if (!file.cores_per_socket) vars.cores_per_socket = measured.topology->cores_per_socket();
  }
  vars.chas_per_socket = file.chas_per_socket.value_or(0);
  vars.retire_latencies = measured.retire_latencies;
  // The file's own rows were measured in the run it holds: they come first.
  for (const auto& [name, cycles] : file.retire_latencies) vars.retire_latencies[name] = cycles;
  vars.perf_metrics = resolve(options.perf_metrics, file.perf_metrics.value_or(has_topdown_metrics(sample, resolver)));
  vars.smt_enabled = resolve(options.smt, file.smt_enabled.value_or(false));
  if (options.smt == Toggle::Auto && !file.smt_enabled) {
    decision.warnings.push_back("the file does not say whether SMT was on; assumed off (--smt on|off says it)");
  }
  if (!file.repeated_events.empty()) {
    decision.warnings.push_back(fmt::format(
        "{} has more than one row per interval of {} (counted by several groups): each event's rows are pooled "
        "into one count, not added",
        options.file, fmt::join(file.repeated_events, ", ")));
  }
  schedule::Selection selection;
  selection.max_level = options.report.level;
  selection.all_info = options.all_info;
  decision.nodes = schedule::select_nodes(model, selection);
  check_perf_metrics_choice(options.perf_metrics, model, vars, decision.nodes, resolver);
  decision.folded = std::make_shared<const model::FoldedModel>(model, vars);
  decision.identities = import::identities_for(decision.folded, decision.nodes, sample);
  const import::FallbackChoice fallbacks = import::fallbacks_for(decision.folded, decision.identities, sample);
  decision.fallbacks = fallbacks.nodes;
  if (!decision.fallbacks.empty()) {
    decision.warnings.push_back(
        fmt::format("{} lacks {}: without them the model's fallback formulas give {}, as "
                    "approximations (marked ~); count them too for the model's values "
                    "(topdown stat --print-perf)",
                    options.file, fmt::join(fallbacks.missing_events, ", "), fmt::join(decision.fallbacks, ", ")));
  }
  if (!options.all_info) {
    // Like stat's Info metrics that ride along: those the file has the events for.
    for (auto& metric : import::info_metrics_counted(decision.folded, decision.identities, sample)) {
      decision.nodes.push_back(std::move(metric));
    }
  }
  return decision;
}

std::vector<std::string> run_warnings(const ImportOptions& options, const import::FileInfo& file,
                                      const std::vector<std::string>& split, const RunJoin& join) {
  std::vector<std::string> warnings;
  if (file.runs <= 1) return warnings;
  std::string line = fmt::format(
      "{} holds {} perf stat runs: each node is computed from the first run that counted all of its events, with "
      "that run's own cycles",
      options.file, file.runs);
  if (!split.empty()) {
    const bool clocked = !join.clock.empty() && join.runs_without_clock.size() < file.runs;
    if (!clocked) {
      line += fmt::format("; {} (events split over runs) from the runs' counts per second, marked approximate (~)",
                          fmt::join(split, ", "));
    } else {
      line += fmt::format("; {} (events split over runs) from the runs' counts per {} tick, marked approximate (~)",
                          fmt::join(split, ", "), join.clock);
      if (!join.runs_without_clock.empty()) {
        line += fmt::format(" (run {} did not count {}: per second there)", fmt::join(join.runs_without_clock, ", "),
                            join.clock);
      }
    }
  }
  warnings.push_back(line);
  if (options.per != aggregate::View::Global) {
    warnings.push_back("the reports per unit pool each unit's counts over the runs");
  }
  return warnings;
}

std::set<std::string, std::less<>> core_wide_events(const std::vector<std::string>& file_events,
                                                    const events::Resolver& resolver) {
  std::set<std::string, std::less<>> events;
  for (const std::string& event : file_events) {
    if (resolver.knows(event) && resolver.resolve(event).percore) events.insert(event);
  }
  return events;
}

TopologySource import_topology_source(const ImportOptions& options, const std::vector<counts::Place>& places,
                                      bool has_core_wide_events, bool model_is_this_machines) {
  if (!options.topology.empty()) return TopologySource::File;
  const bool per_cpu = !places.empty() && aggregate::kind_of_label(places.front().label) == aggregate::PlaceKind::Cpu;
  const bool needs_topology = options.per != aggregate::View::Thread || has_core_wide_events ||
                              !aggregate::counted_once_per_socket(places).empty();
  return per_cpu && needs_topology && model_is_this_machines ? TopologySource::ThisMachine : TopologySource::None;
}

std::string this_machine_topology_warning(size_t cpus, const ImportOptions& options) {
  return fmt::format(
      "no --topology: the CPUs are grouped as on this machine ({} CPUs in /sys), assuming {} was "
      "counted here; give the measured machine's `lscpu -p=CPU,CORE,SOCKET` output with --topology "
      "FILE otherwise",
      cpus, options.file);
}

void check_interval(const ImportOptions& options, const import::Interval& interval) {
  if (options.per_interval && !interval.time_s) {
    throw Error(options.file + " has no intervals (perf stat -I); leave out --per-interval");
  }
  if (options.per != aggregate::View::Global && interval.places.empty()) {
    throw Error(
        fmt::format("{} has no rows per CPU, core, socket or thread; {} needs perf stat -A (or perf's "
                    "--per-core, --per-socket, --per-thread) output",
                    options.file, aggregate::view_name(options.per)));
  }
}

}  // namespace topdown::settings
