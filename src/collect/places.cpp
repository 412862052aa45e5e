#include "collect/places.h"

#include "common/error.h"

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
  if (!before.empty() && before.size() != now.size()) {
    throw Error("internal: the counters were read on a different set of places");
  }
  std::vector<counts::Place> deltas;
  deltas.reserve(now.size());
  for (size_t i = 0; i < now.size(); ++i) {
    deltas.push_back(
        {now[i].label, before.empty() ? now[i].sample : delta_of(now[i].sample, before[i].sample), now[i].cgroup});
  }
  return deltas;
}

void set_duration(std::vector<counts::Place>& places, double duration_s) {
  for (counts::Place& place : places) place.sample.duration_s = duration_s;
}

}  // namespace topdown::collect
