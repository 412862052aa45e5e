// Partial evaluation and the questions asked about what a formula still needs.
#include <stdexcept>
#include <utility>

#include "expr/node.h"

namespace topdown::expr {
namespace {

using Known = std::function<std::optional<Value>(std::string_view)>;

// fold() evaluates only nodes whose operands are all constants, so nothing is
// ever looked up; reaching this is a bug in fold itself.
class NoNames final : public Scope {
 public:
  Value lookup(std::string_view name) const override {
    throw std::logic_error("fold evaluated a node that still names '" + std::string(name) + "'");
  }
};

bool is_constant_node(const Node& node) { return node.op == Op::Constant; }

NodePtr fold_node(const NodePtr& node, const Known& known);

// The operand that can make the others irrelevant: a conditional's condition,
// the left side of and/or. Returns the folded result when it does.
NodePtr short_circuit(const Node& node, const NodePtr& deciding, const Known& known) {
  if (!is_constant_node(*deciding)) return nullptr;
  if (!deciding->value) return deciding;  // n/a decides everything
  const bool holds = *deciding->value != 0.0;
  switch (node.op) {
    case Op::Conditional:
      return fold_node(node.operands[holds ? 0 : 2], known);
    case Op::And:
      return holds ? nullptr : make_constant(0.0);
    case Op::Or:
      return holds ? make_constant(1.0) : nullptr;
    default:
      return nullptr;
  }
}

NodePtr fold_node(const NodePtr& node, const Known& known) {
  if (node->op == Op::Constant) return node;
  if (node->op == Op::Identifier) {
    const auto value = known(node->name);
    return value ? make_constant(*value) : node;
  }
  const bool short_circuits = node->op == Op::Conditional || node->op == Op::And || node->op == Op::Or;
  const std::size_t deciding_index = node->op == Op::Conditional ? 1 : 0;
  NodePtr deciding = fold_node(node->operands[deciding_index], known);
  if (short_circuits) {
    if (auto result = short_circuit(*node, deciding, known)) return result;
  }
  std::vector<NodePtr> operands;
  operands.reserve(node->operands.size());
  bool changed = false;
  bool all_constant = true;
  for (std::size_t i = 0; i < node->operands.size(); ++i) {
    operands.push_back(i == deciding_index ? deciding : fold_node(node->operands[i], known));
    changed = changed || operands.back() != node->operands[i];
    all_constant = all_constant && is_constant_node(*operands.back());
  }
  if (!changed && !all_constant) return node;
  auto folded = make_operation(node->op, std::move(operands));
  return all_constant ? make_constant(evaluate_node(*folded, NoNames())) : folded;
}

void collect_identifiers(const Node& node, std::set<std::string>& names) {
  if (node.op == Op::Identifier) names.insert(node.name);
  for (const auto& operand : node.operands) collect_identifiers(*operand, names);
}

bool names_anything(const Node& node) {
  if (node.op == Op::Identifier) return true;
  for (const auto& operand : node.operands) {
    if (names_anything(*operand)) return true;
  }
  return false;
}

}  // namespace

Expression Expression::fold(const Known& known) const { return Expression(fold_node(root_, known)); }

std::set<std::string> Expression::identifiers() const {
  std::set<std::string> names;
  collect_identifiers(*root_, names);
  return names;
}

bool Expression::is_constant() const { return !names_anything(*root_); }

}  // namespace topdown::expr
