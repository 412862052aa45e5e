#include "model/dependencies.h"

#include <algorithm>

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
                           FallbackChoice fallbacks)
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
  for (const Node& node : model.nodes) {
    std::set<std::string> events;
    std::set<std::string, std::less<>> visiting;
    collect(node.name, events, visiting, true);
    events_.emplace(node.name, std::move(events));
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
// verdict. A value never depends on a verdict (the loader allows over() only
// in thresholds) and verdicts do not wait on each other in a circle, so each
// over(NODE) starts a fresh walk without risk of endless recursion.
void Dependencies::collect(std::string_view name, std::set<std::string>& events,
                           std::set<std::string, std::less<>>& visiting, bool with_threshold) const {
  if (!visiting.emplace(name).second) {
    throw Error("model " + model_->name + ": '" + std::string(name) +
                "' depends on itself through its formulas; fix the model file " + model_->source.string());
  }
  auto visit = [&](const expr::Expression& expression) {
    for (const std::string& id : expression.identifiers()) {
      switch (kind_of(id)) {
        case Kind::Definition:
        case Kind::Node:
          collect(id, events, visiting, false);
          break;
        case Kind::Verdict: {
          std::set<std::string, std::less<>> fresh;
          collect(*over_target(id), events, fresh, true);
          break;
        }
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
  visiting.erase(visiting.find(name));
}

}  // namespace topdown::model
