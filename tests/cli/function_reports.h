#pragma once
// The --json output of `topdown report`: one object per line, the whole
// program first, then each function, then the locate table.
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace topdown::testing {

inline std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> objects;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) objects.push_back(nlohmann::json::parse(line));
  return objects;
}

inline const nlohmann::json& function_object(const std::vector<nlohmann::json>& objects, const std::string& name) {
  for (const auto& object : objects) {
    if (object.value("function", "") == name) return object;
  }
  throw std::runtime_error("no function " + name + " in the report");
}

}  // namespace topdown::testing
