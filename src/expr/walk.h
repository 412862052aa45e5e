#pragma once
// The one set of evaluation rules, for any shape of tree: the shared syntax
// tree (Expression::evaluate, fold) and the flat compiled form (Program).
// `Tree` tells what a node is: op(n), constant(n), operand(n, i),
// operand_count(n) and identifier(n), the value of an identifier.
#include <cmath>
#include <cstddef>

#include "expr/node.h"

namespace topdown::expr::walk {

inline Value finite(double value) { return std::isfinite(value) ? Value(value) : std::nullopt; }
// An identifier's value as formulas see it: n/a unless finite.
inline Value finite_or_na(const Value& value) { return value ? finite(*value) : std::nullopt; }
inline Value boolean(bool value) { return value ? 1.0 : 0.0; }
inline bool truthy(double value) { return value != 0.0; }

inline Value binary(Op op, double left, double right) {
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

// An n/a anywhere turns into n/a at the top unless short-circuiting skips it.
// min and max evaluate every operand, n/a or not, so that a name the caller
// rejects is reported whatever the data.
template <class Tree, class Ref>
Value evaluate(const Tree& tree, Ref node) {
  const auto operand = [&](std::size_t index) { return evaluate(tree, tree.operand(node, index)); };
  const Op op = tree.op(node);
  switch (op) {
    case Op::Constant:
      return tree.constant(node);
    case Op::Identifier:
      return finite_or_na(tree.identifier(node));
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
      const bool decided = op == Op::And ? !truthy(*left) : truthy(*left);
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
    case Op::Max: {
      Value best;
      bool missing = false;
      for (std::size_t i = 0; i < tree.operand_count(node); ++i) {
        const Value value = operand(i);
        if (!value) {
          missing = true;
        } else if (!best || (op == Op::Min ? *value < *best : *value > *best)) {
          best = value;
        }
      }
      return missing ? std::nullopt : best;
    }
    default: {
      const Value left = operand(0);
      const Value right = operand(1);
      return left && right ? binary(op, *left, *right) : std::nullopt;
    }
  }
}

}  // namespace topdown::expr::walk
