#pragma once
// The engine's private syntax tree. Nodes are immutable and shared, so fold()
// can reuse every subtree it does not change.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "expr/expression.h"

namespace topdown::expr {

enum class Op : std::uint8_t {
  Constant,
  Identifier,
  Negate,
  Not,
  Add,
  Subtract,
  Multiply,
  Divide,
  Modulo,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Equal,
  NotEqual,
  And,
  Or,
  Conditional,  // operands: value if true, condition, value if false
  Min,
  Max,
  Abs,
  DRatio,
};

using NodePtr = std::shared_ptr<const Node>;

struct Node {
  Op op = Op::Constant;
  Value value;                    // Op::Constant; std::nullopt is an n/a constant
  std::string name;               // Op::Identifier
  std::vector<NodePtr> operands;  // in source order, except Conditional (see Op)
  std::uint32_t height = 1;       // longest path to a leaf: bounds the evaluator's recursion
};

struct Function {
  std::string_view name;
  Op op;
  std::size_t min_operands;
  std::size_t max_operands;
};

inline constexpr std::array<Function, 4> kFunctions = {{
    {"min", Op::Min, 2, std::numeric_limits<std::size_t>::max()},
    {"max", Op::Max, 2, std::numeric_limits<std::size_t>::max()},
    {"abs", Op::Abs, 1, 1},
    {"d_ratio", Op::DRatio, 2, 2},
}};

// A non-finite value is stored as n/a, so no tree ever holds NaN or inf.
NodePtr make_constant(Value value);
NodePtr make_identifier(std::string name);
NodePtr make_operation(Op op, std::vector<NodePtr> operands);

// The one evaluator, shared by Expression::evaluate and fold().
Value evaluate_node(const Node& node, const Scope& scope);

}  // namespace topdown::expr
