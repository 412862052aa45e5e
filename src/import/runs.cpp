#include "import/runs.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace topdown::import {
namespace {

uint64_t longest_enabled(const counts::Sample& run) {
  uint64_t longest = 0;
  for (const auto& [key, count] : run.events) longest = std::max(longest, count.time_enabled);
  return longest;
}

// `count` as if it had been enabled `length` ns at the same rate and share.
counts::Count stretched(const counts::Count& count, uint64_t length) {
  if (count.time_enabled == 0) return count;
  const double factor = static_cast<double>(length) / static_cast<double>(count.time_enabled);
  return {count.value * factor, length,
          static_cast<uint64_t>(std::llround(static_cast<double>(count.time_running) * factor))};
}

// Whether the run counted the event (its own count or a copy the file numbered).
bool holds(const counts::Sample& run, const std::string& event) {
  const auto found = run.events.lower_bound(counts::EventKey{event, 0});
  return found != run.events.end() && found->first.event == event;
}

}  // namespace

RunCounts rescale_runs(const std::vector<counts::Sample>& runs, double duration_s) {
  RunCounts result;
  if (runs.empty()) return result;
  double total_length = 0;
  for (const counts::Sample& run : runs) total_length += static_cast<double>(longest_enabled(run));
  const auto mean_length = static_cast<uint64_t>(std::llround(total_length / static_cast<double>(runs.size())));

  struct Sum {
    double value = 0;
    double running = 0;
    int runs = 0;
  };
  std::map<counts::EventKey, Sum, counts::EventKeyLess> sums;
  for (const counts::Sample& run : runs) {
    counts::Sample rescaled;
    rescaled.duration_s = duration_s;
    for (const auto& [key, count] : run.events) {
      const counts::Count even = stretched(count, mean_length);
      rescaled.events.emplace(key, even);
      Sum& sum = sums[key];
      sum.value += even.value;
      sum.running += static_cast<double>(even.time_running);
      ++sum.runs;
    }
    result.runs.push_back(std::move(rescaled));
  }
  result.rates.duration_s = duration_s;
  for (const auto& [key, sum] : sums) {
    const double runs_counted = sum.runs;
    result.rates.events.emplace(key, counts::Count{sum.value / runs_counted, mean_length,
                                                   static_cast<uint64_t>(std::llround(sum.running / runs_counted))});
  }
  return result;
}

counts::Sample with_run_copies(const counts::Sample& rates, const std::vector<counts::Sample>& runs) {
  counts::Sample sample = rates;
  for (size_t i = 0; i < runs.size(); ++i) {
    const int run = static_cast<int>(i) + 1;
    // Own counts sort before the file's copies, so an event's own count wins.
    for (const auto& [key, count] : runs[i].events) sample.events.emplace(counts::EventKey{key.event, run}, count);
  }
  return sample;
}

ClockJoin join_through_clock(const counts::Sample& rates, const std::vector<counts::Sample>& runs,
                             const std::string& clock) {
  ClockJoin join{rates, {}};
  std::vector<double> ticks;  // each run's clock count, 0 where it has none
  double clocked_ticks = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const counts::Count* count = clock.empty() ? nullptr : runs[i].find(clock);
    ticks.push_back(count && count->value > 0 ? count->value : 0);
    if (ticks.back() == 0) join.runs_without_clock.push_back(static_cast<int>(i) + 1);
    clocked_ticks += ticks.back();
  }
  const size_t clocked_runs = runs.size() - join.runs_without_clock.size();
  if (clocked_runs == 0) return join;
  const double mean_clock = clocked_ticks / static_cast<double>(clocked_runs);

  std::map<counts::EventKey, std::pair<double, int>, counts::EventKeyLess> sums;  // value, runs
  for (size_t i = 0; i < runs.size(); ++i) {
    const double factor = ticks[i] > 0 ? mean_clock / ticks[i] : 1.0;
    for (const auto& [key, count] : runs[i].events) {
      auto& [value, counted] = sums[key];
      value += count.value * factor;
      ++counted;
    }
  }
  for (auto& [key, count] : join.rates.events) {
    const auto sum = sums.find(key);
    if (sum != sums.end()) count.value = sum->second.first / sum->second.second;
  }
  return join;
}

RunChoice choose_runs(const model::Dependencies& dependencies, const std::vector<std::string>& nodes,
                      const std::vector<counts::Sample>& runs) {
  RunChoice choice;
  for (const std::string& node : nodes) {
    const std::set<std::string>& events = dependencies.events_of(node);
    if (events.empty()) continue;
    auto holds_all = [&](const counts::Sample& run) {
      return std::all_of(events.begin(), events.end(), [&](const std::string& event) { return holds(run, event); });
    };
    const auto run = std::find_if(runs.begin(), runs.end(), holds_all);
    if (run != runs.end()) {
      choice.node_runs.emplace(node, static_cast<int>(run - runs.begin()) + 1);
      continue;
    }
    // Split over runs, unless some event is in none of them: then the node is n/a anyway.
    const bool all_counted = std::all_of(events.begin(), events.end(), [&](const std::string& event) {
      return std::any_of(runs.begin(), runs.end(), [&](const counts::Sample& r) { return holds(r, event); });
    });
    if (all_counted) choice.split.push_back(node);
  }
  return choice;
}

}  // namespace topdown::import
