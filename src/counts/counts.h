#pragma once
// Counts of one measurement, however they were collected (live perf_event,
// the region library, or an imported file): the input to evaluation.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::counts {

struct Count {
  double value = 0;           // as counted (not scaled)
  uint64_t time_enabled = 0;  // ns the event was enabled
  uint64_t time_running = 0;  // ns it was really on a counter
  // Share of the enabled time the event was counted: 1 when never multiplexed.
  double running_share() const {
    return time_enabled == 0 ? 0.0 : static_cast<double>(time_running) / static_cast<double>(time_enabled);
  }
  // A count can be below 0 or not finite only when something went wrong: a
  // counter that went backwards between two reads, or sums that overflowed.
  bool valid() const;
  // value extrapolated to the whole enabled time; nullopt when never counted
  // (time_running 0) or not valid().
  std::optional<double> scaled() const;
};

struct Sample {
  std::map<std::string, Count, std::less<>> events;  // by event name as the model spells it
  double duration_s = 0;  // wall time covered, for interval-s and rates

  const Count* find(std::string_view event) const;
  void add(const std::string& event, const Count& count);  // sums value and times
};

// Counts of one place (a CPU, core, socket or thread), labelled as perf
// labels it: "CPU3", "S0-D0-C1", "S0", "app-4242". Not scaled: one Count per
// event as collected.
struct Place {
  std::string label;
  Sample sample;
};

// Adds `more` to `total` the way perf adds CPUs: each scaled by its own
// enabled/running time before adding. The sum keeps the summed times and a
// value such that total.scaled() is the sum of the scaled counts (it is the
// sum of the raw values whenever every part was counted the same share of
// its time); counted_share is then the parts' overall share. A part that is
// not valid() makes the sum invalid.
void add_scaled(Count& total, const Count& more);

// Every event of `sample` added with add_scaled into `total`.
void add_scaled(Sample& total, const Sample& sample);

// When counter groups rotate, an event that several groups need is counted
// in each of them (schedule::make_plan), so that a node is computed from the
// counts of one group, taken over the same time. The copy in group `group`
// (1-based, the plan's order) is named "EVENT:groupN"; the first stays EVENT.
std::string group_copy_name(std::string_view event, int group);
// The event and group of a copy's name; nullopt for any other name.
struct GroupCopy {
  std::string_view event;
  int group = 0;
};
std::optional<GroupCopy> parse_group_copy(std::string_view name);

}  // namespace topdown::counts
