#include <algorithm>
#include <numeric>

#include "collect/collect.h"
#include "collect/places.h"
#include "common/error.h"

namespace topdown::collect {
namespace {

// Adds the events `more` has and `into` does not.
void add_missing_events(counts::Sample& into, const counts::Sample& more) {
  for (const auto& [key, count] : more.events) {
    if (into.find(key.event, key.group) == nullptr) into.events.emplace(key, count);
  }
}

// A place is its label and its cgroup: with -G each CPU is counted once per
// cgroup.
counts::Sample& same_place(std::vector<counts::Place>& places, const counts::Place& like) {
  auto it = std::find_if(places.begin(), places.end(), [&](const counts::Place& place) {
    return place.label == like.label && place.cgroup == like.cgroup;
  });
  if (it != places.end()) return it->sample;
  places.emplace_back(like.label, counts::Sample{}, like.cgroup);
  return places.back().sample;
}

}  // namespace

std::vector<std::vector<CounterGroup>> one_group_a_run(const std::vector<CounterGroup>& groups) {
  std::vector<std::vector<CounterGroup>> runs;
  for (const CounterGroup& group : groups) runs.push_back({group});
  return runs;
}

CombinedRuns run_once_each(const Target& target, const std::vector<std::vector<CounterGroup>>& runs,
                           const Options& options) {
  if (target.command.empty()) {
    throw Error("--no-multiplex runs the command once per counter group; give the command after '--'");
  }
  std::vector<WorkloadResult> results;
  for (const std::vector<CounterGroup>& groups : runs) {
    results.push_back(collect(target, groups, options));
    if (results.back().signal || results.back().stopped_by) break;  // Ctrl-C stops the series, not just one run
  }
  if (results.empty()) results.push_back(collect(target, {}, options));
  return combine_runs(results);
}

CombinedRuns combine_runs(const std::vector<WorkloadResult>& runs) {
  if (runs.empty()) throw Error("internal: no runs to combine");
  CombinedRuns combined;
  for (const WorkloadResult& run : runs) {
    add_missing_events(combined.result.sample, run.sample);
    for (const counts::Place& place : run.places) {
      counts::Sample& into = same_place(combined.result.places, place);
      add_missing_events(into, place.sample);
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
  set_duration(combined.result.places, combined.result.elapsed_s);
  return combined;
}

}  // namespace topdown::collect
