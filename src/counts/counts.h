#pragma once
// Counts of one measurement, however they were collected (live perf_event,
// the region library, or an imported file): the input to evaluation.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace topdown::counts {

struct Count {
  double value = 0;           // as counted (not scaled)
  uint64_t time_enabled = 0;  // ns the event was enabled
  uint64_t time_running = 0;  // ns it was really on a counter
  // Share of the enabled time the event was counted: 1 when never multiplexed.
  double running_share() const {
    return time_enabled == 0 ? 0.0 : static_cast<double>(time_running) / static_cast<double>(time_enabled);
  }
  // value extrapolated to the whole enabled time; nullopt when never counted.
  std::optional<double> scaled() const;
};

struct Sample {
  std::map<std::string, Count, std::less<>> events;  // by event name as the model spells it
  double duration_s = 0;  // wall time covered, for interval-s and rates

  const Count* find(std::string_view event) const;
  void add(const std::string& event, const Count& count);  // sums value and times
};

}  // namespace topdown::counts
