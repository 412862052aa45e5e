#pragma once
// Files that hold several `perf stat` runs one after another (each starts
// with perf's `# started on ...` line): what counting a plan's groups one run
// at a time gives (`--no-multiplex`, one `--print-perf` line per group, an
// uncore file appended). Runs differ in length and in their cycles, so a node
// is computed from the run that holds all of its events, with that run's own
// cycles or slots; only a node whose events are split over runs is computed
// from the runs' rates, joined through the model's clock event, and marked
// approximate.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "counts/counts.h"
#include "model/dependencies.h"

namespace topdown::import {

// The runs of one file, each rescaled to the runs' mean length.
struct RunCounts {
  // Every event at its rate over the runs that counted it (their counts
  // rescaled to the mean length, then averaged): what a node split over runs
  // is computed from.
  counts::Sample rates;
  // Each run's own counts, rescaled to the mean length so that time-based
  // Info metrics of every run see the same interval; ratios within a run are
  // untouched.
  std::vector<counts::Sample> runs;
};

// `runs` as counted (by any names); each event's length is its own enabled
// time. `duration_s` becomes the rates' duration.
RunCounts rescale_runs(const std::vector<counts::Sample>& runs, double duration_s);

// One sample for eval: the rates as every event's own count, and run N's
// counts (1-based) as copies of group N (counts::EventKey), which a node
// listed in eval::Options::node_groups reads. A copy the file itself
// numbered (EVENT:groupN) counts for its run like the event.
counts::Sample with_run_copies(const counts::Sample& rates, const std::vector<counts::Sample>& runs);

// The runs' rates joined through the model's clock event instead of time:
// runs of one plan agree in cycles far better than in length, so each run's
// counts are scaled to the runs' mean clock count before an event's runs are
// averaged, and a node split over runs sees each run's counts per clock tick,
// as that run's own ratios do. `rates` and `runs` are rescale_runs' (by the
// model's names); the rates keep their times, only values change. A run
// without a positive clock count keeps its time-based rescaling.
struct ClockJoin {
  counts::Sample rates;
  std::vector<int> runs_without_clock;  // 1-based
};
ClockJoin join_through_clock(const counts::Sample& rates, const std::vector<counts::Sample>& runs,
                             const std::string& clock);

struct RunChoice {
  std::map<std::string, int, std::less<>> node_runs;  // node -> the first run (1-based) holding all its events
  std::vector<std::string> split;                     // nodes whose events no single run holds, in `nodes` order
};

// Which run each of `nodes` is computed from (`runs` by the model's names).
RunChoice choose_runs(const model::Dependencies& dependencies, const std::vector<std::string>& nodes,
                      const std::vector<counts::Sample>& runs);

}  // namespace topdown::import
