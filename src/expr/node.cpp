#include "expr/node.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace topdown::expr {

NodePtr make_constant(Value value) {
  auto node = std::make_shared<Node>();
  if (value && std::isfinite(*value)) node->value = value;
  return node;
}

NodePtr make_identifier(std::string name) {
  auto node = std::make_shared<Node>();
  node->op = Op::Identifier;
  node->name = std::move(name);
  return node;
}

NodePtr make_operation(Op op, std::vector<NodePtr> operands) {
  auto node = std::make_shared<Node>();
  node->op = op;
  node->operands = std::move(operands);
  for (const auto& operand : node->operands) node->height = std::max(node->height, operand->height + 1);
  return node;
}

Expression::Expression() : root_(make_constant(0.0)) {}

Expression::Expression(std::shared_ptr<const Node> root) : root_(std::move(root)) {}

Expression Expression::constant(double value) { return Expression(make_constant(value)); }

}  // namespace topdown::expr
