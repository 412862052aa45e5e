#pragma once
// What the tests of the shipped Intel models share: the model loaded with
// lookups that fail loudly, thresholds and values evaluated over synthetic
// numbers, the count of its tree, and the comparison with Intel's perfmon
// metrics files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "model/dependencies.h"
#include "model/model.h"

namespace topdown::testing {

using Counts = std::map<std::string, double, std::less<>>;

// perfmon's metrics file of one CPU, e.g. ("SKL", "skylake_metrics.json").
inline std::filesystem::path perfmon_metrics_file(std::string_view folder, std::string_view file) {
  return std::filesystem::path(TOPDOWN_SOURCE_DIR) / ".." / "shared" / "reference" / "intel-perfmon" / folder /
         "metrics" / file;
}

class ShippedModelTest : public ::testing::Test {
 protected:
  explicit ShippedModelTest(const std::string& name)
      : model_(model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / (name + ".model"))) {}

  const model::Node& node(std::string_view name) const {
    const model::Node* found = model_.find(name);
    if (!found) throw Error(model_.name + ".model has no node " + std::string(name));
    return *found;
  }

  // Evaluates a threshold with `this`, the run's answers in `given`
  // (parent_over, HighIPC, over(NODE), other nodes) and the model's constants.
  bool over(std::string_view name, double own_value, const Counts& given = {}) const {
    const expr::FunctionScope scope([&](std::string_view identifier) -> expr::Value {
      if (identifier == "this") return own_value;
      if (const auto it = given.find(identifier); it != given.end()) return it->second;
      if (const auto it = model_.constants.find(identifier); it != model_.constants.end()) return it->second;
      throw Error("threshold of " + std::string(name) + " uses '" + std::string(identifier) + "'");
    });
    const expr::Value result = node(name).threshold.value().evaluate(scope);
    return result.has_value() && *result != 0;
  }

  // A node's value from `counts`, through the formulas the run's variables
  // select (definitions and other nodes evaluated on the way). An event
  // missing from `counts` and a value that is n/a throw.
  double value(std::string_view name, const Counts& counts, const model::RunVariables& vars) const {
    const model::Dependencies deps(model_, vars);
    using Kind = model::Dependencies::Kind;
    std::function<expr::Value(std::string_view)> lookup = [&](std::string_view identifier) -> expr::Value {
      const expr::FunctionScope scope(lookup);
      switch (deps.kind_of(identifier)) {
        case Kind::Constant:
          return model_.constants.find(identifier)->second;
        case Kind::Definition:
          return deps.definition(identifier)->evaluate(scope);
        case Kind::Node:
          return deps.formula(identifier).evaluate(scope);
        case Kind::Event:
          if (const auto it = counts.find(identifier); it != counts.end()) return it->second;
          throw Error("the test gives no count for " + std::string(identifier));
        default:
          throw Error("unexpected name in a formula: " + std::string(identifier));
      }
    };
    const expr::Value result = lookup(name);
    if (!result) throw Error(std::string(name) + " is n/a");
    return *result;
  }

  model::Model model_;
};

struct TreeCount {
  std::map<int, int> nodes_per_level;
  int infos = 0;
};

// Counts the tree's nodes per level and the Info metrics, expecting what every
// shipped node carries: a description; on Info metrics a unit; on tree nodes
// a domain, an area and advice.
inline TreeCount count_tree(const model::Model& model) {
  TreeCount count;
  for (const model::Node& each : model.nodes) {
    SCOPED_TRACE(each.name);
    EXPECT_FALSE(each.description.empty());
    if (each.is_info) {
      ++count.infos;
      EXPECT_FALSE(each.unit.empty());
    } else {
      ++count.nodes_per_level[each.level];
      EXPECT_FALSE(each.domain.empty());
      EXPECT_FALSE(each.area.empty());
      EXPECT_FALSE(each.advice.empty());
    }
  }
  return count;
}

struct PerfmonComparison {
  int tree_nodes = 0;
  int infos = 0;                   // perfmon's metrics outside the TMA tree that the model has
  std::set<std::string> left_out;  // perfmon's TMA metrics the model does not have
};

// Compares the model with every metric of a perfmon metrics file: a metric
// of the TMA category not named Info_ or Bottleneck_ is a tree node with
// perfmon's level, parent and count domain; every other metric the model has
// is an Info metric. Metrics are found by name or vendor name.
inline PerfmonComparison compare_with_perfmon(const model::Model& model, const std::filesystem::path& metrics_file) {
  std::ifstream in(metrics_file);
  const nlohmann::json perfmon = nlohmann::json::parse(in);
  PerfmonComparison comparison;
  for (const auto& metric : perfmon.at("Metrics")) {
    const std::string name = metric.at("MetricName").get<std::string>();
    SCOPED_TRACE(name);
    const bool tma = metric.at("Category") == "TMA";
    const model::Node* ours = model.find(name);
    if (!ours) {
      if (tma) comparison.left_out.insert(name);
      continue;
    }
    const bool in_tree = tma && !name.starts_with("Info_") && !name.starts_with("Bottleneck_");
    EXPECT_EQ(ours->is_info, !in_tree);
    if (!in_tree) {
      ++comparison.infos;
      continue;
    }
    EXPECT_EQ(ours->level, metric.at("Level").get<int>());
    EXPECT_EQ(ours->parent, metric.value("ParentCategory", ""));
    EXPECT_EQ(ours->domain, metric.at("CountDomain").get<std::string>());
    ++comparison.tree_nodes;
  }
  return comparison;
}

}  // namespace topdown::testing
