#include "model/dependencies.h"

#include <algorithm>

#include "common/graph.h"
#include "common/strings.h"

namespace topdown::model {

std::optional<expr::Value> known_run_variable(std::string_view name, const RunVariables& vars) {
  if (name == "smt_enabled" || name == "#smt_on") return expr::Value{vars.smt_enabled ? 1.0 : 0.0};
  if (name == "ebs_mode") return expr::Value{vars.ebs_mode ? 1.0 : 0.0};
  if (name == "perf_metrics") return expr::Value{vars.perf_metrics ? 1.0 : 0.0};
  if (name == "num_cpus_online" || name == "#num_cpus_online") {
    return vars.online_cpus > 0 ? expr::Value{vars.online_cpus} : expr::Value{};
  }
  return std::nullopt;
}

Dependencies::Dependencies(const Model& model, const RunVariables& vars, IdentityChoice identities,
                           const FallbackChoice& fallbacks)
    : model_(&model), identities_(std::move(identities)) {
  auto known = [&](std::string_view name) -> std::optional<expr::Value> {
    if (auto it = model.constants.find(name); it != model.constants.end()) return expr::Value{it->second};
    return known_run_variable(name, vars);
  };
  for (const auto& [name, definition] : model.definitions) definitions_.emplace(name, definition.fold(known));
  for (const Node& node : model.nodes) {
    const expr::Expression* chosen = &node.formula;
    if (identities_.count(node.name) > 0 && node.identity) chosen = &*node.identity;
    if (fallbacks.count(node.name) > 0 && node.fallback) {
      chosen = &*node.fallback;
      fallbacks_.insert(node.name);
    }
    formulas_.emplace(node.name, chosen->fold(known));
    if (node.threshold) {
      const auto& folded = thresholds_.emplace(node.name, node.threshold->fold(known)).first->second;
      if (folded.identifiers().count("parent_over")) asks_parent_.insert(node.name);
    }
  }
  check_value_cycles();
  for (const Node& node : model.nodes) {
    std::set<std::string> events;
    collect(node.name, events, true);
    events_.emplace(node.name, std::move(events));
  }
}

// The loader rejects cycles among a file's formulas, but a model built
// otherwise, or a choice of identities, may still make values wait on each
// other, and collect() would recurse without end.
void Dependencies::check_value_cycles() const {
  std::vector<std::string> names;
  for (const auto& [name, formula] : definitions_) names.push_back(name);
  for (const auto& [name, formula] : formulas_) names.push_back(name);
  const std::vector<std::string> cycle = find_cycle(names, [&](const std::string& name) {
    const expr::Expression* value = definition(name);
    std::vector<std::string> used;
    for (const std::string& id : (value ? *value : formula(name)).identifiers()) {
      const Kind kind = kind_of(id);
      if (kind == Kind::Definition || kind == Kind::Node) used.push_back(id);
    }
    return used;
  });
  if (!cycle.empty()) {
    throw Error("model " + model_->name + ": '" + cycle.front() + "' depends on itself through its formulas (" +
                join(cycle, " -> ") + "); fix the model file " + model_->source.string());
  }
}

const expr::Expression& Dependencies::formula(std::string_view node) const {
  auto it = formulas_.find(node);
  if (it == formulas_.end()) throw Error("model " + model_->name + " has no node '" + std::string(node) + "'");
  return it->second;
}

const expr::Expression* Dependencies::definition(std::string_view name) const {
  auto it = definitions_.find(name);
  return it == definitions_.end() ? nullptr : &it->second;
}

const expr::Expression* Dependencies::threshold(std::string_view node) const {
  auto it = thresholds_.find(node);
  return it == thresholds_.end() ? nullptr : &it->second;
}

const std::set<std::string>& Dependencies::events_of(std::string_view node) const {
  auto it = events_.find(node);
  if (it == events_.end()) throw Error("model " + model_->name + " has no node '" + std::string(node) + "'");
  return it->second;
}

Dependencies::Kind Dependencies::kind_of(std::string_view name) const {
  if (model_->constants.count(name)) return Kind::Constant;
  if (definitions_.count(name)) return Kind::Definition;
  if (formulas_.count(name)) return Kind::Node;
  if (is_run_variable(name)) return Kind::RunVariable;
  if (const auto target = over_target(name); target && formulas_.count(*target)) return Kind::Verdict;
  return Kind::Event;
}

// A node's events are those of its value and, when `with_threshold`, of its
// verdict. Values do not wait on each other in a circle (checked above), a
// value never depends on a verdict (the loader allows over() only in
// thresholds) and verdicts do not wait on each other in a circle, so the walk
// ends.
void Dependencies::collect(std::string_view name, std::set<std::string>& events, bool with_threshold) const {
  auto visit = [&](const expr::Expression& expression) {
    for (const std::string& id : expression.identifiers()) {
      switch (kind_of(id)) {
        case Kind::Definition:
        case Kind::Node:
          collect(id, events, false);
          break;
        case Kind::Verdict:
          collect(*over_target(id), events, true);
          break;
        case Kind::Event:
          events.insert(id);
          break;
        case Kind::Constant:
        case Kind::RunVariable:
          break;
      }
    }
  };
  if (const expr::Expression* definition_expr = definition(name)) {
    visit(*definition_expr);
  } else {
    visit(formula(name));
    if (const expr::Expression* threshold_expr = threshold(name); threshold_expr && with_threshold) {
      visit(*threshold_expr);
    }
  }
}

}  // namespace topdown::model
