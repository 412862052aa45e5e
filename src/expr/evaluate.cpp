// Evaluation walks the shared tree directly: no allocation per call.
#include "expr/node.h"
#include "expr/walk.h"

namespace topdown::expr {
namespace {

struct SharedTree {
  const Scope& scope;
  Op op(const Node* node) const { return node->op; }
  Value constant(const Node* node) const { return node->value; }
  const Node* operand(const Node* node, std::size_t index) const { return node->operands[index].get(); }
  std::size_t operand_count(const Node* node) const { return node->operands.size(); }
  Value identifier(const Node* node) const { return scope.lookup(node->name); }
};

}  // namespace

Value evaluate_node(const Node& node, const Scope& scope) { return walk::evaluate(SharedTree{scope}, &node); }

Value Expression::evaluate(const Scope& scope) const { return evaluate_node(*root_, scope); }

}  // namespace topdown::expr
