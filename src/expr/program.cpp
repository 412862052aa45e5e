#include "expr/program.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "expr/node.h"
#include "expr/walk.h"

namespace topdown::expr {
namespace {

constexpr double kNa = std::numeric_limits<double>::quiet_NaN();

double on_stack(const Value& value) { return value ? *value : kNa; }  // walk's values are finite or n/a
bool is_na(double value) { return std::isnan(value); }

double unary(Op op, double value) {
  if (is_na(value)) return kNa;
  switch (op) {
    case Op::Negate:
      return -value;
    case Op::Abs:
      return std::fabs(value);
    default:  // Op::Not
      return on_stack(walk::boolean(!walk::truthy(value)));
  }
}

}  // namespace

// On `stack`: an array, or a vector for the rare formula deeper than the array.
template <class Stack>
Value Program::run_steps(Slots& slots, Stack& stack) const {
  std::size_t top = 0;  // values on the stack
  for (std::size_t at = 0; at < steps_.size(); ++at) {
    const Step& step = steps_[at];
    switch (step.code) {
      case Code::Push:
        stack[top++] = step.constant;
        break;
      case Code::Read:
        stack[top++] = on_stack(walk::finite_or_na(slots.value_of(step.slot)));
        break;
      case Code::Unary:
        stack[top - 1] = unary(step.op, stack[top - 1]);
        break;
      case Code::Binary: {
        const double right = stack[--top];
        const double left = stack[top - 1];
        stack[top - 1] = is_na(left) || is_na(right) ? kNa : on_stack(walk::binary(step.op, left, right));
        break;
      }
      case Code::ShortCircuit: {
        // The left operand of and/or decides alone when it is n/a or settles it.
        const double left = stack[top - 1];
        if (is_na(left)) {
          at = step.jump - 1;
        } else if (step.op == Op::And ? !walk::truthy(left) : walk::truthy(left)) {
          stack[top - 1] = on_stack(walk::boolean(walk::truthy(left)));
          at = step.jump - 1;
        } else {
          --top;
        }
        break;
      }
      case Code::ToBoolean:
        if (!is_na(stack[top - 1])) stack[top - 1] = on_stack(walk::boolean(walk::truthy(stack[top - 1])));
        break;
      case Code::Branch: {
        const double condition = stack[--top];
        if (is_na(condition)) {
          stack[top++] = kNa;
          at = step.after - 1;
        } else if (!walk::truthy(condition)) {
          at = step.jump - 1;
        }
        break;
      }
      case Code::Jump:
        at = step.jump - 1;
        break;
      case Code::Extreme: {
        // min and max read every operand; n/a if any is.
        top -= step.slot;
        double best = stack[top];
        bool missing = false;
        for (std::uint32_t i = 0; i < step.slot; ++i) {
          const double value = stack[top + i];
          if (is_na(value)) {
            missing = true;
          } else if (is_na(best) || (step.op == Op::Min ? value < best : value > best)) {
            best = value;
          }
        }
        stack[top++] = missing ? kNa : best;
        break;
      }
    }
  }
  return is_na(stack[0]) ? Value() : Value(stack[0]);
}

Program::Program(const Expression& expression, const std::function<std::uint32_t(std::string_view)>& slot_of) {
  emit(*expression.root_, slot_of, 0);
}

std::uint32_t Program::add(Step step) {
  steps_.push_back(step);
  return static_cast<std::uint32_t>(steps_.size() - 1);
}

// `depth`: values on the stack below this node's.
void Program::emit(const Node& node, const std::function<std::uint32_t(std::string_view)>& slot_of,
                   std::uint32_t depth) {
  max_depth_ = std::max(max_depth_, depth + 1);
  const auto here = [this] { return static_cast<std::uint32_t>(steps_.size()); };
  switch (node.op) {
    case Op::Constant:
      add({Code::Push, node.op, on_stack(node.value)});
      return;
    case Op::Identifier:
      add({Code::Read, node.op, 0, slot_of(node.name)});
      return;
    case Op::Negate:
    case Op::Abs:
    case Op::Not:
      emit(*node.operands[0], slot_of, depth);
      add({Code::Unary, node.op});
      return;
    case Op::And:
    case Op::Or: {
      emit(*node.operands[0], slot_of, depth);
      const std::uint32_t decide = add({Code::ShortCircuit, node.op});
      emit(*node.operands[1], slot_of, depth);
      add({Code::ToBoolean, node.op});
      steps_[decide].jump = here();
      return;
    }
    case Op::Conditional: {
      emit(*node.operands[1], slot_of, depth);
      const std::uint32_t branch = add({Code::Branch, node.op});
      emit(*node.operands[0], slot_of, depth);
      const std::uint32_t skip_false = add({Code::Jump, node.op});
      steps_[branch].jump = here();
      emit(*node.operands[2], slot_of, depth);
      steps_[skip_false].jump = steps_[branch].after = here();
      return;
    }
    case Op::Min:
    case Op::Max: {
      const auto count = static_cast<std::uint32_t>(node.operands.size());
      for (std::uint32_t i = 0; i < count; ++i) emit(*node.operands[i], slot_of, depth + i);
      add({Code::Extreme, node.op, 0, count});
      return;
    }
    default:
      emit(*node.operands[0], slot_of, depth);
      emit(*node.operands[1], slot_of, depth + 1);
      add({Code::Binary, node.op});
      return;
  }
}

Value Program::run(Slots& slots) const {
  constexpr std::size_t kUsual = 64;
  if (max_depth_ <= kUsual) {
    std::array<double, kUsual> stack;
    return run_steps(slots, stack);
  }
  std::vector<double> stack(max_depth_);
  return run_steps(slots, stack);
}

}  // namespace topdown::expr
