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
  // identifier as `slots` answers its slot.
  Value run(Slots& slots) const;

 private:
  struct Step {
    Op op;
    Value constant;           // Op::Constant
    std::uint32_t slot = 0;   // Op::Identifier
    std::uint32_t first = 0;  // operands: operands_[first, first + count)
    std::uint32_t count = 0;
  };
  std::uint32_t add(const Node& node, const std::function<std::uint32_t(std::string_view)>& slot_of);

  std::vector<Step> steps_;
  std::vector<std::uint32_t> operands_;  // step indices
  std::uint32_t root_ = 0;
  friend struct FlatTree;
};

}  // namespace topdown::expr
