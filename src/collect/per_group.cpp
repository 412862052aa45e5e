#include <numeric>

#include "collect/collect.h"
#include "common/error.h"

namespace topdown::collect {

CombinedRuns run_once_per_group(const Target& target, const std::vector<CounterGroup>& groups,
                                const Options& options) {
  if (target.command.empty()) {
    throw Error("--no-multiplex runs the command once per counter group; give the command after '--'");
  }
  std::vector<WorkloadResult> runs;
  for (const CounterGroup& group : groups) {
    runs.push_back(collect(target, {group}, options));
    if (runs.back().signal || runs.back().stopped_by) break;  // Ctrl-C stops the series, not just one run
  }
  if (runs.empty()) runs.push_back(collect(target, {}, options));
  return combine_runs(runs);
}

CombinedRuns combine_runs(const std::vector<WorkloadResult>& runs) {
  if (runs.empty()) throw Error("internal: no runs to combine");
  CombinedRuns combined;
  for (const WorkloadResult& run : runs) {
    for (const auto& [event, count] : run.sample.events) {
      if (combined.result.sample.find(event) == nullptr) combined.result.sample.events.emplace(event, count);
    }
    combined.elapsed_s.push_back(run.elapsed_s);
  }
  const WorkloadResult& last = runs.back();
  combined.result.exit_code = last.exit_code;
  combined.result.signal = last.signal;
  combined.result.stopped_by = last.stopped_by;
  combined.result.elapsed_s =
      std::accumulate(combined.elapsed_s.begin(), combined.elapsed_s.end(), 0.0) / static_cast<double>(runs.size());
  combined.result.sample.duration_s = combined.result.elapsed_s;
  return combined;
}

}  // namespace topdown::collect
