#pragma once
// Shared by the expr tests: a scope over a map, and the formula corpora from
// the source documents (which live outside the repository, next to it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "common/error.h"
#include "expr/expression.h"

namespace topdown::expr::testing {

using Names = std::map<std::string, Value, std::less<>>;

// Unknown names throw, as the real scopes do, so a test cannot silently read 0.
inline FunctionScope scope_of(const Names& names) {
  return FunctionScope([&names](std::string_view name) -> Value {
    const auto found = names.find(name);
    if (found == names.end()) throw Error("test scope has no name '" + std::string(name) + "'");
    return found->second;
  });
}

inline Value evaluate(std::string_view text, const Names& names = {}) {
  return Expression::parse(text).evaluate(scope_of(names));
}

inline std::filesystem::path shared_dir() {
  if (const char* dir = std::getenv("TOPDOWN_SHARED_DIR")) return dir;
  return std::filesystem::path(TOPDOWN_SOURCE_DIR) / ".." / "shared";
}

struct Formula {
  std::string origin;  // file and name, for failure messages
  std::string text;
};

// Right-hand sides of "NAME = formula" lines in the ```python blocks of seed
// 000, with the EV(lambda ...) wrapper rewritten the way the model author does.
inline std::vector<Formula> seed_formulas() {
  std::vector<Formula> formulas;
  const std::regex assignment(R"(^([A-Za-z_][A-Za-z_0-9]*) = (.+)$)");
  const std::regex wrapper(
      R"(EV\(lambda EV, level: (min|max)\(EV\('([^']+)', level\), EV\('([^']+)', level\)\), level\))");
  for (const auto& entry : std::filesystem::directory_iterator(shared_dir() / "seeds")) {
    if (!entry.path().filename().string().starts_with("000_")) continue;
    std::ifstream in(entry.path());
    std::string line;
    bool in_python = false;
    while (std::getline(in, line)) {
      if (line.starts_with("```")) {
        in_python = line == "```python";
        continue;
      }
      std::smatch match;
      if (in_python && std::regex_match(line, match, assignment)) {
        formulas.push_back({entry.path().filename().string() + ": " + match[1].str(),
                            std::regex_replace(match[2].str(), wrapper, "$1($2, $3)")});
      }
    }
  }
  return formulas;
}

// Every MetricExpr and MetricThreshold of the perf metric JSON files.
inline std::vector<Formula> perf_formulas() {
  std::vector<Formula> formulas;
  for (const auto& cpu : std::filesystem::directory_iterator(shared_dir() / "reference" / "perf-json")) {
    if (!cpu.is_directory()) continue;
    for (const auto& file : std::filesystem::directory_iterator(cpu.path())) {
      if (file.path().extension() != ".json") continue;
      std::ifstream in(file.path());
      const auto metrics = nlohmann::json::parse(in);
      if (!metrics.is_array()) continue;
      for (const auto& metric : metrics) {
        for (const char* key : {"MetricExpr", "MetricThreshold"}) {
          if (!metric.contains(key)) continue;
          formulas.push_back({file.path().filename().string() + ": " + metric.value("MetricName", "?") + " " + key,
                              metric[key].get<std::string>()});
        }
      }
    }
  }
  return formulas;
}

}  // namespace topdown::expr::testing
