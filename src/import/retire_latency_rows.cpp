#include "import/retire_latency_rows.h"

#include "model/model.h"

namespace topdown::import {

std::optional<std::string_view> retire_latency_event(std::string_view name) {
  if (name.size() > 2 && name.ends_with(":R")) return name.substr(0, name.size() - 2);
  // cpu_core/EVENT/R: a PMU, one event term, the modifier after the slash.
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos || slash == 0 || !name.ends_with("/R")) return std::nullopt;
  const std::string_view event = name.substr(slash + 1, name.size() - slash - 3);
  if (event.empty() || event.find('/') != std::string_view::npos) return std::nullopt;
  return event;
}

void RetireLatencyRows::add(std::string_view event, double cycles, model::RetireLatencies& means) {
  std::string name = model::retire_latency_name(event);
  auto& [sum, rows] = sums_[name];
  sum += cycles;
  ++rows;
  means[std::move(name)] = sum / static_cast<double>(rows);
}

}  // namespace topdown::import
