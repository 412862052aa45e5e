#include "expr/program.h"

#include "expr/node.h"
#include "expr/walk.h"

namespace topdown::expr {

struct FlatTree {
  const Program& program;
  Slots& slots;
  Op op(std::uint32_t step) const { return program.steps_[step].op; }
  Value constant(std::uint32_t step) const { return program.steps_[step].constant; }
  std::uint32_t operand(std::uint32_t step, std::size_t index) const {
    return program.operands_[program.steps_[step].first + index];
  }
  std::size_t operand_count(std::uint32_t step) const { return program.steps_[step].count; }
  Value identifier(std::uint32_t step) const { return slots.value_of(program.steps_[step].slot); }
};

Program::Program(const Expression& expression, const std::function<std::uint32_t(std::string_view)>& slot_of) {
  root_ = add(*expression.root_, slot_of);
}

std::uint32_t Program::add(const Node& node, const std::function<std::uint32_t(std::string_view)>& slot_of) {
  std::vector<std::uint32_t> children;
  children.reserve(node.operands.size());
  for (const NodePtr& operand : node.operands) children.push_back(add(*operand, slot_of));
  Step step{node.op, node.value, 0, static_cast<std::uint32_t>(operands_.size()),
            static_cast<std::uint32_t>(children.size())};
  if (node.op == Op::Identifier) step.slot = slot_of(node.name);
  operands_.insert(operands_.end(), children.begin(), children.end());
  steps_.push_back(step);
  return static_cast<std::uint32_t>(steps_.size() - 1);
}

Value Program::run(Slots& slots) const { return walk::evaluate(FlatTree{*this, slots}, root_); }

}  // namespace topdown::expr
