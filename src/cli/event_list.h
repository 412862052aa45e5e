#pragma once
#include <string>
#include <vector>

namespace topdown::cli {

// Splits an -e list at commas that are not inside a pmu/.../ term list.
std::vector<std::string> split_event_list(const std::string& list);

}  // namespace topdown::cli
