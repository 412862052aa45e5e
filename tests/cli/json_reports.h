#pragma once
// The JSON reports of `--json` output: one object for a whole file, one
// object per line for units or intervals.
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace topdown::testing {

inline std::vector<nlohmann::json> json_reports(const std::string& output) {
  std::vector<nlohmann::json> reports;
  if (nlohmann::json whole = nlohmann::json::parse(output, nullptr, false); whole.is_object()) {
    reports.push_back(std::move(whole));
    return reports;
  }
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    nlohmann::json report = nlohmann::json::parse(line, nullptr, false);
    if (report.is_object()) reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace topdown::testing
