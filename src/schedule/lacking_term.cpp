#include "schedule/lacking_term.h"

#include <fmt/format.h>

namespace topdown::schedule {

std::optional<std::string> lacking_term_reason(std::string_view event, std::string_view refusal) {
  constexpr std::string_view kNeeds = " needs the field ";
  constexpr std::string_view kOfPmu = " of PMU ";
  const size_t needs = refusal.find(kNeeds);
  const size_t of_pmu = refusal.find(kOfPmu);
  if (needs == std::string_view::npos || of_pmu == std::string_view::npos || of_pmu < needs) return std::nullopt;
  const std::string_view term = refusal.substr(needs + kNeeds.size(), of_pmu - needs - kNeeds.size());
  return fmt::format("this machine's PMU does not count {}: {} term missing, a virtual machine?", event, term);
}

}  // namespace topdown::schedule
