// Evaluation walks the shared tree directly: no allocation per call, and an
// n/a anywhere turns into n/a at the top unless short-circuiting skips it.
#include <cmath>

#include "expr/node.h"

namespace topdown::expr {
namespace {

Value finite(double value) { return std::isfinite(value) ? Value(value) : std::nullopt; }
Value boolean(bool value) { return value ? 1.0 : 0.0; }
bool truthy(double value) { return value != 0.0; }

Value binary(Op op, double left, double right) {
  switch (op) {
    case Op::Add:
      return finite(left + right);
    case Op::Subtract:
      return finite(left - right);
    case Op::Multiply:
      return finite(left * right);
    case Op::Divide:
      return right == 0.0 ? std::nullopt : finite(left / right);
    case Op::Modulo:
      return right == 0.0 ? std::nullopt : finite(std::fmod(left, right));
    case Op::DRatio:  // perf's d_ratio: a ratio that reads 0 when nothing happened
      return right == 0.0 ? 0.0 : finite(left / right);
    case Op::Less:
      return boolean(left < right);
    case Op::LessEqual:
      return boolean(left <= right);
    case Op::Greater:
      return boolean(left > right);
    case Op::GreaterEqual:
      return boolean(left >= right);
    case Op::Equal:
      return boolean(left == right);
    case Op::NotEqual:
      return boolean(left != right);
    default:
      return std::nullopt;  // not a binary operator: the callers never get here
  }
}

// Every operand is evaluated, n/a or not, so that a name the scope rejects is
// reported whatever the data.
Value extreme(const Node& node, const Scope& scope) {
  Value best;
  bool missing = false;
  for (const auto& operand : node.operands) {
    const Value value = evaluate_node(*operand, scope);
    if (!value) {
      missing = true;
    } else if (!best || (node.op == Op::Min ? *value < *best : *value > *best)) {
      best = value;
    }
  }
  return missing ? std::nullopt : best;
}

}  // namespace

Value evaluate_node(const Node& node, const Scope& scope) {
  const auto operand = [&](std::size_t index) { return evaluate_node(*node.operands[index], scope); };
  switch (node.op) {
    case Op::Constant:
      return node.value;
    case Op::Identifier: {
      const Value value = scope.lookup(node.name);
      return value ? finite(*value) : std::nullopt;
    }
    case Op::Negate: {
      const Value value = operand(0);
      return value ? Value(-*value) : std::nullopt;
    }
    case Op::Abs: {
      const Value value = operand(0);
      return value ? Value(std::fabs(*value)) : std::nullopt;
    }
    case Op::Not: {
      const Value value = operand(0);
      return value ? boolean(!truthy(*value)) : std::nullopt;
    }
    case Op::And:
    case Op::Or: {
      const Value left = operand(0);
      if (!left) return std::nullopt;
      const bool decided = node.op == Op::And ? !truthy(*left) : truthy(*left);
      if (decided) return boolean(truthy(*left));
      const Value right = operand(1);
      return right ? boolean(truthy(*right)) : std::nullopt;
    }
    case Op::Conditional: {
      const Value condition = operand(1);
      if (!condition) return std::nullopt;
      return operand(truthy(*condition) ? 0 : 2);
    }
    case Op::Min:
    case Op::Max:
      return extreme(node, scope);
    default: {
      const Value left = operand(0);
      const Value right = operand(1);
      return left && right ? binary(node.op, *left, *right) : std::nullopt;
    }
  }
}

Value Expression::evaluate(const Scope& scope) const { return evaluate_node(*root_, scope); }

}  // namespace topdown::expr
