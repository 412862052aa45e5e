// Preparing an evaluation: formulas compiled with their names bound to slots.
#include <algorithm>
#include <map>
#include <set>

#include "eval/prepared.h"

namespace topdown::eval {
namespace {

using Kind = model::Dependencies::Kind;

class Compiler {
 public:
  explicit Compiler(Evaluator::Prepared& prepared) : p_(prepared) {}

  std::uint32_t node(std::string_view name) {
    if (auto it = node_index_.find(name); it != node_index_.end()) return it->second;
    const model::Node* node = p_.deps.model().find(name);
    if (!node)
      throw Error("model " + p_.deps.model().name + " has no node '" + std::string(name) + "'; see `topdown list`");
    const auto index = static_cast<std::uint32_t>(p_.nodes.size());
    node_index_.emplace(std::string(name), index);
    p_.nodes.push_back({node, formula(name), std::nullopt, std::nullopt});
    if (const expr::Expression* threshold = p_.deps.threshold(name)) {
      if (p_.deps.asks_parent(name) && !node->parent.empty()) {
        const std::uint32_t parent = this->node(node->parent);
        p_.nodes[index].parent = parent;
      }
      expr::Program program(*threshold, [&](std::string_view id) { return threshold_slot(id); });
      p_.nodes[index].threshold = std::move(program);
    }
    return index;
  }

  // Events get their final index once all are known (finish): sorted by name.
  std::uint32_t event(const std::string& name) {
    return event_ids_.try_emplace(name, static_cast<std::uint32_t>(event_ids_.size())).first->second;
  }

  void finish() {
    std::vector<std::uint32_t> rank(event_ids_.size());
    p_.events.clear();
    for (const auto& [name, id] : event_ids_) {
      rank[id] = static_cast<std::uint32_t>(p_.events.size());
      p_.events.push_back(name);
    }
    for (Slot& slot : p_.slots) {
      if (slot.kind == SlotKind::Event) slot.index = rank[slot.index];
    }
    for (SelectedNode& chosen : p_.selected) {
      for (std::uint32_t& event : chosen.events) event = rank[event];
    }
  }

 private:
  std::uint32_t formula(std::string_view name) {
    if (auto it = formula_index_.find(name); it != formula_index_.end()) return it->second;
    const auto index = static_cast<std::uint32_t>(p_.formulas.size());
    formula_index_.emplace(std::string(name), index);
    p_.formulas.push_back({std::nullopt, p_.deps.uses_fallback(name), {}, {}});
    const expr::Expression* definition = p_.deps.definition(name);
    const expr::Expression& expression = definition ? *definition : p_.deps.formula(name);
    expr::Program program(expression, [&](std::string_view id) {
      const std::uint32_t slot = value_slot(id);
      const Slot& bound = p_.slots[slot];
      if (bound.kind == SlotKind::Formula) p_.formulas[index].formulas.push_back(bound.index);
      if (bound.kind == SlotKind::Duration || bound.kind == SlotKind::Known) p_.formulas[index].inputs.push_back(slot);
      return slot;
    });
    p_.formulas[index].program = std::move(program);
    return index;
  }

 public:
  // The Duration and Known slots a node's value reads, through every formula it uses.
  std::vector<std::uint32_t> inputs_of(std::uint32_t node_index) const {
    std::set<std::uint32_t> inputs;
    std::set<std::uint32_t> seen;
    std::vector<std::uint32_t> pending{p_.nodes[node_index].formula};
    while (!pending.empty()) {
      const std::uint32_t formula_index = pending.back();
      pending.pop_back();
      if (!seen.insert(formula_index).second) continue;
      const PreparedFormula& formula = p_.formulas[formula_index];
      inputs.insert(formula.inputs.begin(), formula.inputs.end());
      pending.insert(pending.end(), formula.formulas.begin(), formula.formulas.end());
    }
    return {inputs.begin(), inputs.end()};
  }

 private:
  std::uint32_t add_slot(Slot slot) {
    p_.slots.push_back(std::move(slot));
    return static_cast<std::uint32_t>(p_.slots.size() - 1);
  }

  // A name in a node's formula or a definition.
  std::uint32_t value_slot(std::string_view id) {
    if (auto it = value_slots_.find(id); it != value_slots_.end()) return it->second;
    Slot slot;
    switch (p_.deps.kind_of(id)) {
      case Kind::Constant:
        slot = {SlotKind::Known, 0, p_.deps.model().constants.find(id)->second, {}};
        break;
      case Kind::Definition:
      case Kind::Node:
        slot = {SlotKind::Formula, formula(id), std::nullopt, {}};
        break;
      case Kind::Event:
        slot = {SlotKind::Event, event(std::string(id)), std::nullopt, {}};
        break;
      case Kind::RunVariable:
        slot = run_variable(id);
        break;
      case Kind::Verdict:
        slot = {SlotKind::Rejected, 0, std::nullopt, std::string(id)};
        break;
    }
    const std::uint32_t index = add_slot(std::move(slot));
    value_slots_.emplace(std::string(id), index);
    return index;
  }

  Slot run_variable(std::string_view id) const {
    if (auto known = model::known_run_variable(id, p_.deps.folded()->vars())) {
      return {SlotKind::Known, 0, *known, std::string(id)};
    }
    if (id == "interval-s" || id == "duration_time") return {SlotKind::Duration, 0, std::nullopt, std::string(id)};
    if (id == "#slots") {
      const auto& constants = p_.deps.model().constants;
      const auto width = constants.find("Pipeline_Width");
      return {SlotKind::Known, 0, width == constants.end() ? std::nullopt : expr::Value{width->second},
              std::string(id)};
    }
    return {SlotKind::Rejected, 0, std::nullopt, std::string(id)};
  }

  // A name in a threshold: `this`, parent_over and over(NODE) mean something here.
  std::uint32_t threshold_slot(std::string_view id) {
    if (id == "this") return add_slot({SlotKind::This, 0, std::nullopt, {}});
    if (id == "parent_over") return add_slot({SlotKind::ParentOver, 0, std::nullopt, {}});
    if (p_.deps.kind_of(id) == Kind::Verdict)
      return add_slot({SlotKind::Verdict, node(*model::over_target(id)), std::nullopt, {}});
    return value_slot(id);
  }

  Evaluator::Prepared& p_;
  std::map<std::string, std::uint32_t, std::less<>> node_index_;
  std::map<std::string, std::uint32_t, std::less<>> formula_index_;
  std::map<std::string, std::uint32_t, std::less<>> value_slots_;
  std::map<std::string, std::uint32_t, std::less<>> event_ids_;
};

}  // namespace

Evaluator::Prepared::Prepared(std::shared_ptr<const model::FoldedModel> folded, std::vector<std::string> names,
                              const Options& evaluation_options)
    : deps(std::move(folded), evaluation_options.identities, evaluation_options.fallbacks),
      options(evaluation_options),
      node_names(std::move(names)) {
  std::set<std::string> reference;
  for (const auto& [name, unused] : deps.model().definitions) {
    for (const std::string& id : deps.definition(name)->identifiers()) {
      if (deps.kind_of(id) == Kind::Event && reference.insert(id).second) reference_events.push_back(id);
    }
  }

  Compiler compiler(*this);
  for (const std::string& name : node_names) {
    SelectedNode chosen;
    chosen.node = compiler.node(name);
    const auto group = options.node_groups.find(name);
    chosen.group = group == options.node_groups.end() ? 0 : group->second;
    for (const std::string& event : deps.events_of(name)) chosen.events.push_back(compiler.event(event));
    chosen.inputs = compiler.inputs_of(chosen.node);
    selected.push_back(std::move(chosen));
  }
  // Sorted like a sample's keys, so that one walk over a sample finds them all.
  compiler.finish();
}

}  // namespace topdown::eval
