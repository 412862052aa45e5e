#include "model/dependencies.h"

#include <algorithm>

#include "common/graph.h"
#include "common/strings.h"

namespace topdown::model {

std::optional<expr::Value> known_run_variable(std::string_view name, const RunVariables& vars) {
  if (name == "smt_enabled" || name == "#smt_on") return expr::Value{vars.smt_enabled ? 1.0 : 0.0};
  if (name == "ebs_mode") return expr::Value{vars.ebs_mode ? 1.0 : 0.0};
  if (name == "perf_metrics") return expr::Value{vars.perf_metrics ? 1.0 : 0.0};
  const auto count_if_known = [](int count) { return count > 0 ? expr::Value{count} : expr::Value{}; };
  if (name == "num_cpus_online" || name == "#num_cpus_online") return count_if_known(vars.online_cpus);
  if (name == "#socket_count") return count_if_known(vars.sockets);
  if (name == "#chas_per_socket") return count_if_known(vars.chas_per_socket);
  if (is_retire_latency(name)) {
    const auto measured = vars.retire_latencies.find(name);
    return measured == vars.retire_latencies.end() ? expr::Value{} : expr::Value{measured->second};
  }
  if (name == "#cores_per_socket") return count_if_known(vars.cores_per_socket);
  return std::nullopt;
}

FoldedModel::FoldedModel(const Model& model, const RunVariables& vars) : model_(&model), vars_(vars) {
  built_.fetch_add(1, std::memory_order_relaxed);
  auto known = [&](std::string_view name) -> std::optional<expr::Value> {
    if (auto it = model.constants.find(name); it != model.constants.end()) return expr::Value{it->second};
    if (is_retire_latency(name) && !vars.retire_latencies.count(name)) {
      const auto listed = model.retire_latencies.find(name);
      if (listed != model.retire_latencies.end() && listed->second.mean) return expr::Value{*listed->second.mean};
    }
    // A run variable this run does not know stays a name, so that an n/a
    // value can say what it lacks (eval::NodeResult::unknown_inputs).
    const std::optional<expr::Value> value = known_run_variable(name, vars);
    return value && *value ? value : std::nullopt;
  };
  for (const auto& [name, definition] : model.definitions) definitions_.emplace(name, definition.fold(known));
  for (const Node& node : model.nodes) {
    NodeFormulas folded{node.formula.fold(known), {}, {}, {}, false};
    if (node.identity) folded.identity = node.identity->fold(known);
    if (node.fallback) folded.fallback = node.fallback->fold(known);
    if (node.threshold) {
      folded.threshold = node.threshold->fold(known);
      folded.asks_parent = folded.threshold->identifiers().count("parent_over") > 0;
    }
    nodes_.emplace(node.name, std::move(folded));
  }
}

const FoldedModel::NodeFormulas* FoldedModel::node(std::string_view name) const {
  auto it = nodes_.find(name);
  return it == nodes_.end() ? nullptr : &it->second;
}

const expr::Expression* FoldedModel::definition(std::string_view name) const {
  auto it = definitions_.find(name);
  return it == definitions_.end() ? nullptr : &it->second;
}

Dependencies::Dependencies(const Model& model, const RunVariables& vars, IdentityChoice identities,
                           const FallbackChoice& fallbacks)
    : Dependencies(std::make_shared<const FoldedModel>(model, vars), std::move(identities), fallbacks) {}

Dependencies::Dependencies(std::shared_ptr<const FoldedModel> folded, IdentityChoice identities,
                           const FallbackChoice& fallbacks)
    : folded_(std::move(folded)), identities_(std::move(identities)) {
  // Only nodes that have a fallback formula can use it.
  for (const std::string& name : fallbacks) {
    if (const FoldedModel::NodeFormulas* formulas = folded_->node(name); formulas && formulas->fallback) {
      fallbacks_.insert(name);
    }
  }
  check_value_cycles();
  for (const Node& node : model().nodes) {
    std::set<std::string> events;
    collect(node.name, events, true);
    events_.emplace(node.name, std::move(events));
  }
}

const FoldedModel::NodeFormulas& Dependencies::node(std::string_view name) const {
  const FoldedModel::NodeFormulas* formulas = folded_->node(name);
  if (!formulas) throw Error("model " + model().name + " has no node '" + std::string(name) + "'");
  return *formulas;
}

// The loader rejects cycles among a file's formulas, but a model built
// otherwise, or a choice of identities, may still make values wait on each
// other, and collect() would recurse without end.
void Dependencies::check_value_cycles() const {
  std::vector<std::string> names;
  for (const auto& [name, formula] : model().definitions) names.push_back(name);
  for (const Node& node : model().nodes) names.push_back(node.name);
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
    throw Error("model " + model().name + ": '" + cycle.front() + "' depends on itself through its formulas (" +
                join(cycle, " -> ") + "); fix the model file " + model().source.string());
  }
}

const expr::Expression& Dependencies::formula(std::string_view name) const {
  const FoldedModel::NodeFormulas& formulas = node(name);
  if (formulas.fallback && fallbacks_.count(name)) return *formulas.fallback;
  if (formulas.identity && identities_.count(name)) return *formulas.identity;
  return formulas.formula;
}

const expr::Expression* Dependencies::threshold(std::string_view name) const {
  const FoldedModel::NodeFormulas& formulas = node(name);
  return formulas.threshold ? &*formulas.threshold : nullptr;
}

bool Dependencies::asks_parent(std::string_view name) const { return node(name).asks_parent; }

const std::set<std::string>& Dependencies::events_of(std::string_view name) const {
  auto it = events_.find(name);
  if (it == events_.end()) throw Error("model " + model().name + " has no node '" + std::string(name) + "'");
  return it->second;
}

Dependencies::Kind Dependencies::kind_of(std::string_view name) const {
  if (model().constants.count(name)) return Kind::Constant;
  if (folded_->definition(name)) return Kind::Definition;
  if (folded_->node(name)) return Kind::Node;
  if (is_run_variable(name)) return Kind::RunVariable;
  if (const auto target = over_target(name); target && folded_->node(*target)) return Kind::Verdict;
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
