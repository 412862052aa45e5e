#pragma once
// Counts of one measurement, however they were collected (live perf_event,
// the region library, or an imported file): the input to evaluation.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
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

// Which count of an event: its own, or a copy. When counter groups rotate,
// an event that several groups need is counted in each of them
// (schedule::make_plan), so that a node is computed from the counts of one
// group, taken over the same time: the copy counted in group N (1-based, the
// plan's order) has group N; the first count of an event has group 0.
struct EventKey {
  std::string event;  // as the model spells it
  int group = 0;

  EventKey() = default;
  EventKey(std::string name, int copy_group = 0)
      : event(std::move(name)), group(copy_group) {}  // NOLINT: a name is its own count's key
  EventKey(const char* name) : event(name) {}         // NOLINT
  auto operator<=>(const EventKey&) const = default;
  bool operator==(const EventKey&) const = default;
};

// Orders keys by event, then group, and finds them by (event, group) or by
// an event name alone (its own count) without building a key.
struct EventKeyLess {
  using is_transparent = void;
  using View = std::pair<std::string_view, int>;
  static View view(const EventKey& key) { return {key.event, key.group}; }
  static View view(std::string_view event) { return {event, 0}; }
  static View view(const View& key) { return key; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return view(a) < view(b);
  }
};

// The events a counter group counts again as copies (see EventKey): the
// group's number in the plan and the names of the events repeated there.
struct GroupCopies {
  int number = 0;
  std::set<std::string, std::less<>> events;
  EventKey key_of(std::string_view event) const { return {std::string(event), events.count(event) ? number : 0}; }
};

struct Sample {
  std::map<EventKey, Count, EventKeyLess> events;
  double duration_s = 0;  // wall time covered, for interval-s and rates

  // The event's own count (group 0), or its copy counted in `group`.
  const Count* find(std::string_view event, int group = 0) const;
  void add(const EventKey& key, const Count& count);  // sums value and times
  // Whether any event was enabled: a cgroup (or thread) that never ran while
  // counting has none, and nothing was measured.
  bool any_enabled() const;
};

// Counts of one place (a CPU, core, socket or thread), labelled as perf
// labels it: "CPU3", "S0-D0-C1", "S0", "app-4242". Not scaled: one Count per
// event as collected.
struct Place {
  Place() = default;
  Place(std::string label_, Sample sample_, std::string cgroup_ = {})
      : label(std::move(label_)), sample(std::move(sample_)), cgroup(std::move(cgroup_)) {}

  std::string label;
  Sample sample;
  std::string cgroup;  // counted with --cgroup: the cgroup's name (collect::Cgroup), else empty
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

// How a perf file names a copy (`topdown stat --print-perf` spells each
// copy so, so that import keeps the counts apart): "EVENT:groupN"; an own
// count is the plain name.
std::string spelled(const EventKey& key);
// The key of a name a perf file gives: a copy's spelling, else the plain name.
EventKey parse_spelled(std::string_view name);

}  // namespace topdown::counts
