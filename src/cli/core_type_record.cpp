#include "cli/core_type_record.h"

#include <algorithm>
#include <iterator>

namespace topdown::cli {

void CoreTypeRecord::add(std::vector<report::Report> reports, const model::Model& model, bool ran) {
  std::optional<double> cycles = 0.0;
  const bool has_cycles = ran || !ran_anywhere_;
  for (report::Report& report : reports) {
    report.core_type = model.core_type;
    if (!has_cycles) continue;
    const counts::Count* clock = report.sample.find(model.clock);
    const std::optional<double> scaled = clock ? clock->scaled() : std::nullopt;
    cycles = cycles && scaled ? std::optional(*cycles + *scaled) : std::nullopt;
  }
  cycles_.emplace_back(reports_.size(), cycles);
  std::move(reports.begin(), reports.end(), std::back_inserter(reports_));
}

std::vector<report::Report> CoreTypeRecord::take(bool shares) {
  double total = 0;
  const bool every_type_counted_cycles = std::all_of(cycles_.begin(), cycles_.end(), [&](const auto& type) {
    total += type.second.value_or(0);
    return type.second.has_value();
  });
  if (shares && every_type_counted_cycles && total > 0) {
    for (const auto& [first, cycles] : cycles_) reports_[first].core_share = *cycles / total;
  }
  cycles_.clear();
  return std::move(reports_);
}

bool counted_anything(const counts::Sample& sample) {
  return std::any_of(sample.events.begin(), sample.events.end(),
                     [](const auto& entry) { return entry.second.time_running > 0 && entry.second.value > 0; });
}

}  // namespace topdown::cli
