#include "collect/places.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace topdown::collect {
namespace {

counts::Sample delta_of(const counts::Sample& now, const counts::Sample& before) {
  counts::Sample delta;
  for (const auto& [key, count] : now.events) {
    counts::Count step = count;
    if (const counts::Count* earlier = before.find(key.event, key.group)) {
      step.value -= earlier->value;
      step.time_enabled -= earlier->time_enabled;
      step.time_running -= earlier->time_running;
    }
    delta.events.emplace(key, step);
  }
  return delta;
}

}  // namespace

counts::Sample sum_of_places(const std::vector<counts::Place>& places) {
  if (places.empty()) return {};
  // Starting from the first place keeps a single place's raw counts exact,
  // where adding it to an empty sum would rescale its value.
  counts::Sample total = places.front().sample;
  for (size_t i = 1; i < places.size(); ++i) counts::add_scaled(total, places[i].sample);
  return total;
}

std::vector<counts::Place> deltas_since(const std::vector<counts::Place>& now,
                                        const std::vector<counts::Place>& before) {
  // Each place is matched with its own earlier read: in order when the set
  // is the same, else by cgroup and label (followed cgroups come and go). A
  // place new since `before` advanced by all its counts.
  const bool same_places = before.size() == now.size() &&
                           std::equal(now.begin(), now.end(), before.begin(), [](const auto& a, const auto& b) {
                             return a.label == b.label && a.cgroup == b.cgroup;
                           });
  std::map<std::pair<std::string_view, std::string_view>, const counts::Sample*> earlier;
  if (!same_places) {
    for (const counts::Place& place : before) earlier[{place.cgroup, place.label}] = &place.sample;
  }
  std::vector<counts::Place> deltas;
  deltas.reserve(now.size());
  for (size_t i = 0; i < now.size(); ++i) {
    const counts::Sample* start = nullptr;
    if (same_places) {
      start = &before[i].sample;
    } else if (const auto found = earlier.find({now[i].cgroup, now[i].label}); found != earlier.end()) {
      start = found->second;
    }
    deltas.push_back({now[i].label, start == nullptr ? now[i].sample : delta_of(now[i].sample, *start), now[i].cgroup});
  }
  return deltas;
}

void set_duration(std::vector<counts::Place>& places, double duration_s) {
  for (counts::Place& place : places) place.sample.duration_s = duration_s;
}

}  // namespace topdown::collect
