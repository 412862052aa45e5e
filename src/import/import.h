#pragma once
// Import: counts collected elsewhere (`perf stat -x` output or our counts
// file, both described in README.md) read as a stream, summed over CPUs (or
// kept per CPU, core, socket or thread for aggregate::aggregate) and, unless
// each interval is wanted, over intervals; then the file's event names are
// matched to a model's events by name or by encoding.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "counts/counts.h"
#include "events/event.h"
#include "model/dependencies.h"
#include "model/model.h"

namespace topdown::import {

enum class Format { PerfStat, CountsFile };

// What a file says besides its counts (complete when read_file returns).
struct FileInfo {
  Format format = Format::PerfStat;
  char separator = 0;      // perf's -x character
  bool intervals = false;  // perf -I: every row starts with a timestamp
  // -A, --per-core, --per-socket, --per-thread: rows of several places, added
  // up in Interval::sample.
  bool per_cpu = false;
  std::vector<std::string> events;  // every event name, in order of first appearance
  // Events with more than one row for one place in one interval: the same
  // count from several counter groups, pooled (see Interval::sample).
  std::vector<std::string> repeated_events;
  std::optional<bool> smt_enabled;  // counts file run variables
  std::optional<bool> ebs_mode;
  std::optional<bool> perf_metrics;
  std::optional<int> online_cpus;       // num_cpus_online
  std::optional<int> sockets;           // socket_count
  std::optional<int> chas_per_socket;   // chas_per_socket
  std::optional<int> cores_per_socket;  // cores_per_socket
  // Mean retire latencies (cycles) from perf's TPEBS rows (EVENT:R,
  // cpu_core/EVENT/R) or counts-file lines EVENT:R, by formula name
  // (model::retire_latency_name); the mean of an event's rows.
  model::RetireLatencies retire_latencies;
  uint64_t rows = 0;  // counter rows (perf) or event lines (counts file)
  size_t intervals_read = 0;
  // perf stat runs one after another (each "# started on ..."), without -I.
  size_t runs = 1;
};

// One perf -I interval, or the whole file.
struct Interval {
  std::optional<double> time_s;  // perf -I timestamp at the interval's end
  // By the file's event names; an event that was never counted is absent.
  // duration_s is the interval's length (0 when the file does not say).
  // Rows of several places are scaled each by its own times, then added;
  // rows of one event and place are pooled: their values over their running
  // times together, so that an event counted in two groups is not doubled.
  counts::Sample sample;
  // With ReadOptions::per_place and a file of rows per place: each place's
  // counts ("CPU3", "S0-D0-C1", "app-4242"), not scaled, in file order.
  std::vector<counts::Place> places;
  // A file of several perf stat runs (FileInfo::runs): each run's counts, by
  // the file's names, rescaled to the runs' mean length (import/runs.h);
  // `sample` then holds every event at its rate over the runs. Empty for one
  // run. `places` pool the runs.
  std::vector<counts::Sample> runs;
};

struct ReadOptions {
  bool per_interval = false;  // one call per perf -I interval instead of one with their sum
  bool per_place = false;     // fill Interval::places
};

using IntervalHandler = std::function<void(const Interval&, const FileInfo&)>;

// Streams `path` line by line and calls `handler` once per interval (when
// options.per_interval and the file has intervals) or once with every count
// summed. Rows of several CPUs are added up, each scaled by its own running
// time as perf does; intervals are added up. Throws
// ParseError "file:line: ..." for a line it cannot read, a truncated file or
// intervals with different rows, and Error when the file cannot be read or
// holds no counts.
FileInfo read_file(const std::filesystem::path& path, const ReadOptions& options, const IntervalHandler& handler);

// Every event a model's formulas, identities and thresholds use, whatever
// the run variables.
std::set<std::string> model_events(const model::Model& model);

// Maps a file's event names onto a model's events: first the model's own
// names (in any case), then equal encodings (PMU, type, config, config1, config2)
// of the same privilege level, then, for a model event that fixes none, of a
// level that counts user mode. So `r003c` or `cpu/event=0x3c,umask=0x0/u`
// feed the model's cycles event and `CPU_CLK_UNHALTED.THREAD:sup` its
// CPU_CLK_UNHALTED.THREAD_P:SUP, but a kernel-only count never feeds an event
// without a privilege modifier. A model event takes its count from one file
// event only, the first that matches it; a file event feeds every unclaimed
// model event it matches.
class EventMatcher {
 public:
  // `arm_core_pmus`: the Arm core PMUs of the machine that counted the file
  // (core_pmus_of), whose names qualify its events; empty for another
  // machine's file.
  EventMatcher(const model::Model& model, const events::Resolver& resolver,
               std::vector<std::string> arm_core_pmus = {});

  struct Translation {
    counts::Sample sample;               // by the model's event names, plus the unmatched events
    std::vector<std::string> unmatched;  // file events that match no model event, in file order
  };
  // `file_events` lists every name of the file (counted or not), in order.
  Translation translate(const counts::Sample& file_sample, const std::vector<std::string>& file_events);
  // The same, written over `result`: its map's nodes and strings are reused,
  // so that a stream of intervals with the same events allocates nothing.
  void translate(const counts::Sample& file_sample, const std::vector<std::string>& file_events, Translation& result);

  // The model events `file_event` feeds (empty when none); decided by translate.
  const std::vector<std::string>& targets(const std::string& file_event) const;

 private:
  struct ModelEvent {
    std::string name;
    std::string lower_name;
    std::optional<events::Encoding> encoding;  // nullopt when the resolver does not know it
    bool claimed = false;
  };
  void learn(const std::vector<std::string>& file_events);

  // Where each file event's count goes, in the file's order: decided once
  // per name, not per interval (a file's list of names only grows).
  struct Route {
    counts::EventKey file_key;                    // the name as read (a copy's group parsed)
    const std::vector<std::string>* model_names;  // into targets_
  };

  void route(const std::vector<std::string>& file_events);
  void find_counts(const counts::Sample& file_sample);
  bool rewrite_counts(Translation& result) const;
  void translate_anew(const std::vector<std::string>& file_events, Translation& result);

  const events::Resolver& resolver_;
  std::vector<std::string> arm_core_pmus_;
  std::vector<ModelEvent> model_events_;
  std::map<std::string, std::vector<std::string>, std::less<>> targets_;
  std::vector<std::string> routed_names_;  // the file events routes_ was built for
  std::vector<Route> routes_;
  // The routes in the order of their file names, as a sample's map holds
  // them: the file's counts are found in one walk over both.
  std::vector<std::pair<std::string_view, size_t>> routes_by_name_;
  size_t unmatched_routes_ = 0;              // routes to no model event
  std::vector<const counts::Count*> found_;  // by route, of the latest file sample
  // What the latest result was built from: each of its entries (in its
  // map's order) and the route that fed it, and which routes were counted.
  // A result with the same entries has only its counts rewritten.
  struct Written {
    counts::EventKey key;
    size_t route;
  };
  std::vector<Written> written_;
  std::vector<bool> written_counted_;
  std::vector<decltype(counts::Sample::events)::node_type> spare_nodes_;  // of the last result, for reuse
};

// Nodes to compute through their identity because `sample` lacks an event of
// their own formula but has every event the identity needs (a perf command
// printed from a plan that used the identity counts only those).
// Each takes the model folded for the run once (model::FoldedModel), shared
// by every trial and by the evaluator that follows.
model::IdentityChoice identities_for(const std::shared_ptr<const model::FoldedModel>& folded,
                                     const std::vector<std::string>& nodes, const counts::Sample& sample);

// Nodes to compute through their fallback formula (docs/model-format.md)
// because `sample` lacks events of the formula they would use but has every
// event of the fallback: Ice Lake's level 1 from a perf stat --topdown file
// that has the PERF_METRICS fields but not the events TMA 5.1 corrects by.
struct FallbackChoice {
  model::FallbackChoice nodes;
  std::set<std::string> missing_events;  // of the formulas they replace
};
FallbackChoice fallbacks_for(const std::shared_ptr<const model::FoldedModel>& folded,
                             const model::IdentityChoice& identities, const counts::Sample& sample);

// Info metrics whose events are all in `sample`.
std::vector<std::string> info_metrics_counted(const std::shared_ptr<const model::FoldedModel>& folded,
                                              const model::IdentityChoice& identities, const counts::Sample& sample);

}  // namespace topdown::import
