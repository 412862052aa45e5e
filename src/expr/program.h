#pragma once
// An Expression compiled for evaluating many times: each identifier is bound
// once to a slot number, so that evaluation compares no strings and allocates
// nothing. The caller owns the slots and says what each holds (Slots).
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "expr/expression.h"

namespace topdown::expr {

enum class Op : std::uint8_t;  // expr/node.h
struct Node;

// The values a Program reads, by slot number (a count, another formula's
// value computed on demand, ...). May throw topdown::Error like Scope::lookup.
class Slots {
 public:
  virtual ~Slots() = default;
  virtual Value value_of(std::uint32_t slot) = 0;
};

class Program {
 public:
  // `slot_of` is asked once per identifier occurrence, at compile time.
  Program(const Expression& expression, const std::function<std::uint32_t(std::string_view)>& slot_of);

  // The same value Expression::evaluate gives with a Scope that answers each
  // identifier as `slots` answers its slot: the same operands are read, in
  // the same order, and the same are skipped.
  Value run(Slots& slots) const;

 private:
  // The tree as a sequence of steps on a stack of values (n/a is NaN on
  // the stack: every value there is finite or n/a), with jumps where and,
  // or and conditionals skip an operand.
  enum class Code : std::uint8_t { Push, Read, Unary, Binary, ShortCircuit, ToBoolean, Branch, Jump, Extreme };
  struct Step {
    Code code;
    Op op;                    // Unary, Binary, ShortCircuit, Extreme
    double constant = 0;      // Push
    std::uint32_t slot = 0;   // Read; Extreme: how many operands
    std::uint32_t jump = 0;   // ShortCircuit, Jump: where to go; Branch: the false value's steps
    std::uint32_t after = 0;  // Branch: past both values
  };
  void emit(const Node& node, const std::function<std::uint32_t(std::string_view)>& slot_of, std::uint32_t depth);
  std::uint32_t add(Step step);
  template <class Stack>
  Value run_steps(Slots& slots, Stack& stack) const;

  std::vector<Step> steps_;
  std::uint32_t max_depth_ = 0;  // values on the stack at the most
};

}  // namespace topdown::expr
