#include "counts/counts.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace topdown::counts {

bool Count::valid() const { return std::isfinite(value) && value >= 0; }

std::optional<double> Count::scaled() const {
  if (time_running == 0 || !valid()) return std::nullopt;
  if (time_running >= time_enabled) return value;
  return value * static_cast<double>(time_enabled) / static_cast<double>(time_running);
}

const Count* Sample::find(std::string_view event, int group) const {
  auto it = events.find(EventKeyLess::View{event, group});
  return it == events.end() ? nullptr : &it->second;
}

bool Sample::any_enabled() const {
  return std::any_of(events.begin(), events.end(), [](const auto& event) { return event.second.time_enabled > 0; });
}

void Sample::add(const EventKey& key, const Count& count) {
  Count& total = events[key];
  total.value += count.value;
  total.time_enabled += count.time_enabled;
  total.time_running += count.time_running;
}

void add_scaled(Count& total, const Count& more) {
  const bool valid = total.valid() && more.valid();
  const double scaled_sum = total.scaled().value_or(0) + more.scaled().value_or(0);
  const double invalid_value = total.valid() ? more.value : total.value;
  total.time_enabled += more.time_enabled;
  total.time_running += more.time_running;
  if (!valid) {
    total.value = invalid_value;
  } else if (total.time_running == 0 || total.time_running >= total.time_enabled) {
    total.value = scaled_sum;
  } else {
    total.value = scaled_sum * static_cast<double>(total.time_running) / static_cast<double>(total.time_enabled);
  }
}

void add_scaled(Sample& total, const Sample& sample) {
  for (const auto& [event, count] : sample.events) add_scaled(total.events[event], count);
  total.duration_s = std::max(total.duration_s, sample.duration_s);
}

namespace {
constexpr std::string_view kGroupMark = ":group";
}  // namespace

std::string spelled(const EventKey& key) {
  return key.group == 0 ? key.event : key.event + std::string(kGroupMark) + std::to_string(key.group);
}

EventKey parse_spelled(std::string_view name) {
  const size_t mark = name.rfind(kGroupMark);
  if (mark == std::string_view::npos || mark == 0) return {std::string(name)};
  const std::string_view digits = name.substr(mark + kGroupMark.size());
  int group = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), group);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || group < 1) {
    return {std::string(name)};
  }
  return {std::string(name.substr(0, mark)), group};
}

}  // namespace topdown::counts
