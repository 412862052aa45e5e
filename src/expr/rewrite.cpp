// Structural rewriting, for translating formulas written in another dialect.
#include <utility>

#include "expr/node.h"

namespace topdown::expr {

Expression Expression::rewrite(const std::function<std::optional<Expression>(const Expression&)>& replace) const {
  if (auto replacement = replace(*this)) return *replacement;
  std::vector<NodePtr> operands;
  operands.reserve(root_->operands.size());
  bool changed = false;
  for (const NodePtr& operand : root_->operands) {
    operands.push_back(Expression(operand).rewrite(replace).root_);
    changed = changed || operands.back() != operand;
  }
  return changed ? Expression(make_operation(root_->op, std::move(operands))) : *this;
}

std::optional<std::string> Expression::identifier() const {
  if (root_->op != Op::Identifier) return std::nullopt;
  return root_->name;
}

bool Expression::is_complement() const {
  const Node* node = root_.get();
  if (node->op != Op::Subtract) return false;
  // "1 - A - B" is (1 - A) - B: the constant is the leftmost operand.
  while (node->op == Op::Subtract) node = node->operands.front().get();
  return node->op == Op::Constant;
}

}  // namespace topdown::expr
