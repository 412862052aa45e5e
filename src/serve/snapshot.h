#pragma once
// What `topdown serve` publishes: the last completed interval of counting,
// evaluated per scope (the whole machine, each socket, core or CPU), with
// the collector's own health. A Snapshot is immutable once published: the
// counting thread builds a new one per interval and swaps it in, and
// request handlers render whichever one they took, so neither waits on the
// other beyond the swap of a pointer.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "aggregate/aggregate.h"
#include "eval/evaluate.h"
#include "report/report.h"

namespace topdown::serve {

// A series label: name and value (the value is escaped when written).
using Label = std::pair<std::string, std::string>;
using Labels = std::vector<Label>;

// One scope's results in an interval.
struct ScopeResult {
  // The model that evaluated it (its core type's on a CPU of several), a
  // label of every result series.
  std::string model;
  // scope="machine"; scope="socket",socket="0"; scope="core",core="1",socket="0";
  // scope="cpu",cpu="3",core="3",socket="0"; scope="thread",thread="app-4242";
  // scope="processes" for the whole of -p; scope="cgroup",cgroup="/a/b" for
  // a cgroup (--cgroup), whose units also carry its cgroup label. On a CPU
  // with cores of several types each scope is one type's, its last label
  // core_type="P-core" (CoreTypePart).
  Labels labels;
  // The interval's evaluation and counts, with the run described (and the
  // report's scope named) for /report.
  report::Report report;
  // Each event of the interval (its first copy, of group 0), in name order:
  // its scaled count added up over every interval since counting started
  // (the raw counter Prometheus takes rates of; none while it never ran)
  // and the share of this interval it was counted. A vector, so that a
  // scrape of many scopes reads them in order.
  struct Event {
    // Shared by every scope and interval (SnapshotBuilder's), so that a
    // scrape knows an event it has seen by its address.
    std::shared_ptr<const std::string> name;
    std::optional<double> total;
    double counted_share = 0;
  };
  std::vector<Event> events;
  // No event was enabled in the interval: a cgroup (or thread) that ran no
  // task, whose nodes have no value rather than a broken one.
  bool idle = false;
};

struct Health {
  uint64_t intervals = 0;       // completed intervals
  uint64_t lost_intervals = 0;  // timer periods that passed without an interval of their own
  uint64_t errors = 0;          // intervals that could not be evaluated
  std::string last_error;       // the last of those errors, for people
};

struct Snapshot {
  double time_s = 0;      // end of the interval, seconds since counting started
  double interval_s = 0;  // its length
  std::vector<ScopeResult> scopes;
  Health health;
};

// How intervals are split into scopes: always the whole target, and the
// units of `view` (Socket, Core or Thread) when it is not Global. With
// per_cgroup, each cgroup is a whole of its own, with its own units.
struct ScopePlan {
  std::string whole_scope = "machine";  // "machine" for CPUs counted, "processes" for -p
  aggregate::View view = aggregate::View::Global;
  // This machine's topology when CPUs are counted (cpu labels get their core
  // and socket); null otherwise.
  const aggregate::Topology* topology = nullptr;
  bool per_cgroup = false;  // places carry their cgroup (counts::Place::cgroup)
};

// One core type's part of every interval, evaluated with its own model: on
// a CPU with cores of one type the only part, without a core type.
struct CoreTypePart {
  const eval::Evaluator* evaluator = nullptr;
  std::string model;  // its model's name
  report::RunInfo run;
  // The core_type label of its series and the core type of its reports
  // ("P-core", an Arm kind's model title); empty on a CPU of one type,
  // whose series have no core_type label.
  std::string core_type;
  std::set<std::string, std::less<>> core_wide_events;  // :percore events (aggregate::Request)
};

// A part's counts in an interval: its events under their own names, and
// of the places those that counted any of them.
struct CoreTypeCounts {
  const counts::Sample* sample = nullptr;
  const std::vector<counts::Place>* places = nullptr;
};

// Builds each interval's snapshot on the counting thread: evaluates every
// scope, adds the interval's counts to the running totals and keeps the
// health counters. Not thread-safe: one counting thread calls it.
class SnapshotBuilder {
 public:
  // Each interval's scopes are those of every part, in the order given.
  SnapshotBuilder(std::vector<CoreTypePart> parts, ScopePlan plan, std::chrono::milliseconds period);
  // A CPU of one core type: one part, `model` evaluated by `evaluator`.
  SnapshotBuilder(const eval::Evaluator& evaluator, ScopePlan plan, std::string model, report::RunInfo run,
                  std::chrono::milliseconds period);

  // The snapshot of an interval that ended `time_s` seconds after counting
  // started: `sample` is the sum of `places` (collect::Interval). An
  // interval that cannot be evaluated (aggregation or evaluation throws) is
  // counted as an error and the previous results are kept, with the health
  // updated.
  std::shared_ptr<const Snapshot> add(double time_s, const counts::Sample& sample,
                                      const std::vector<counts::Place>& places);
  // As above, with each part's counts (one per part, in the parts' order).
  std::shared_ptr<const Snapshot> add(double time_s, const std::vector<CoreTypeCounts>& counts);

 private:
  void evaluate_scopes(const CoreTypePart& part, const CoreTypeCounts& counts, std::vector<ScopeResult>& scopes);
  // The units of plan_.view among `places`, each labelled after `labels`.
  void add_units(const CoreTypePart& part, const std::vector<counts::Place>& places, const Labels& labels,
                 const std::string& report_prefix, std::vector<ScopeResult>& scopes);
  void evaluate_cgroups(const CoreTypePart& part, const std::vector<counts::Place>& places,
                        std::vector<ScopeResult>& scopes);
  void drop_totals_of_scopes_gone(const Snapshot& snapshot);
  ScopeResult scope_result(const CoreTypePart& part, Labels labels, std::string report_scope,
                           const counts::Sample& sample);

  std::vector<CoreTypePart> parts_;
  ScopePlan plan_;
  std::chrono::milliseconds period_;
  std::map<Labels, std::map<std::string, double, std::less<>>> totals_;  // per scope's labels
  std::map<std::string, std::shared_ptr<const std::string>, std::less<>> event_names_;
  std::shared_ptr<const Snapshot> last_;
  Health health_;
};

// The labels of an aggregate unit of `view` ("S0", "S0-C1", "CPU3",
// "app-4242"), with a CPU's core and socket from `topology` when given.
Labels unit_labels(aggregate::View view, std::string_view unit, const aggregate::Topology* topology);

// The latest snapshot, shared between the counting thread (publish) and the
// request handlers (latest): a pointer swapped under a mutex held for no
// more than the swap.
class SnapshotStore {
 public:
  using Clock = std::chrono::steady_clock;
  explicit SnapshotStore(std::chrono::milliseconds period) : period_(period), started_(Clock::now()) {}

  void publish(std::shared_ptr<const Snapshot> snapshot);
  std::shared_ptr<const Snapshot> latest() const;  // null before the first interval
  // Counting has ended (SIGTERM, the processes counted exited).
  void stop_counting();
  // Counting goes on: an interval was published within the last three
  // periods (or, before the first, since counting started), plus a second
  // of slack for a busy machine.
  bool healthy(Clock::time_point now = Clock::now()) const;

 private:
  std::chrono::milliseconds period_;
  mutable std::mutex mutex_;
  std::shared_ptr<const Snapshot> latest_;
  Clock::time_point started_;
  Clock::time_point published_{};
  bool counting_ = true;
};

}  // namespace topdown::serve
