#include "counts/counts.h"

namespace topdown::counts {

std::optional<double> Count::scaled() const {
  if (time_running == 0) return std::nullopt;
  if (time_running >= time_enabled) return value;
  return value * static_cast<double>(time_enabled) / static_cast<double>(time_running);
}

const Count* Sample::find(std::string_view event) const {
  auto it = events.find(event);
  return it == events.end() ? nullptr : &it->second;
}

void Sample::add(const std::string& event, const Count& count) {
  Count& total = events[event];
  total.value += count.value;
  total.time_enabled += count.time_enabled;
  total.time_running += count.time_running;
}

}  // namespace topdown::counts
