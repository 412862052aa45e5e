#pragma once
// What `topdown import` decides from its options and the file: the run
// variables, the nodes with their identities and fallbacks, and where the
// measured machine's topology comes from. Decided once, from the file's
// first sample, so that every interval and unit is reported alike. Pure
// functions of the options, the file's facts, the model and its resolver.
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "aggregate/aggregate.h"
#include "counts/counts.h"
#include "events/event.h"
#include "import/import.h"
#include "model/model.h"
#include "settings/options.h"

namespace topdown::settings {

// What the options' files say of the machine and run that counted the file,
// which a perf file cannot: read once for every core type and interval.
struct MeasuredMachine {
  std::optional<aggregate::Topology> topology;  // --topology: that machine's lscpu -p
  model::RetireLatencies retire_latencies;      // --retire-latencies
};
// Throws the reader's error naming the file that cannot be read.
MeasuredMachine read_measured_machine(const ImportOptions& options);

struct ImportDecision {
  model::RunVariables vars;
  // The model folded for `vars`: for the selection and the evaluator alike.
  std::shared_ptr<const model::FoldedModel> folded;
  std::vector<std::string> nodes;  // the tree to -l, then the Info metrics that ride along
  model::IdentityChoice identities;
  model::FallbackChoice fallbacks;
  std::vector<std::string> warnings;  // one line each, for every report of the file
};

// `sample` is the file's first sample translated to the model's event names.
// SMT: --smt, else the file's, else off with a warning; PERF_METRICS:
// --perf-metrics, else the file's, else whether the sample has its fields.
// The nodes of -l (every Info metric with --info, else those the sample has
// the events for), identities and fallback formulas for the events the file
// lacks (with a warning naming them), and a warning when the file pooled
// rows of an event counted by several groups.
ImportDecision decide_import(const ImportOptions& options, const MeasuredMachine& measured, const model::Model& model,
                             const events::Resolver& resolver, const import::FileInfo& file,
                             const counts::Sample& sample);

// How the runs of one file were joined for the nodes split over them: through
// the model's clock event, and per second for the runs without it.
struct RunJoin {
  std::string clock;                    // the model's clock event; empty: none
  std::vector<int> runs_without_clock;  // 1-based
};

// The warnings of a file of several perf stat runs (FileInfo::runs > 1):
// how its nodes were computed, naming the nodes `split` over runs and what
// joined them, and with --per-* that each unit's counts are pooled over the
// runs.
std::vector<std::string> run_warnings(const ImportOptions& options, const import::FileInfo& file,
                                      const std::vector<std::string>& split, const RunJoin& join);

// The events of `file_events` that count a whole core per thread (:percore).
std::set<std::string, std::less<>> core_wide_events(const std::vector<std::string>& file_events,
                                                    const events::Resolver& resolver);

// Where the CPUs of a file's rows find their cores and sockets.
enum class TopologySource {
  None,         // not needed, or not known (aggregate says what is missing)
  File,         // --topology FILE
  ThisMachine,  // /sys, with this_machine_topology_warning
};
// `places` are of the file's first interval; `model_is_this_machines` when
// the model is this CPU's (the file may well be from here). Per-CPU rows
// need a topology for cores and sockets, and per thread for :percore events
// and for counts perf prints once per socket (given to each CPU of it).
TopologySource import_topology_source(const ImportOptions& options, const std::vector<counts::Place>& places,
                                      bool has_core_wide_events, bool model_is_this_machines);
std::string this_machine_topology_warning(size_t cpus, const ImportOptions& options);

// Throws Error when the file cannot give what the options ask for:
// --per-interval of a file without intervals, --per-* of one without rows
// per place.
void check_interval(const ImportOptions& options, const import::Interval& interval);

}  // namespace topdown::settings
