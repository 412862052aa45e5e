// Canonical text: one space around binary operators and parentheses only where
// the grammar needs them to rebuild the same tree.
#include <array>
#include <charconv>
#include <cmath>

#include "expr/identifier.h"
#include "expr/node.h"

namespace topdown::expr {
namespace {

// Binding strength, weakest first; mirrors the grammar levels in expression.h.
enum Precedence : int {
  kConditional,
  kOr,
  kAnd,
  kNot,
  kComparison,
  kSum,
  kProduct,
  kUnary,
  kPrimary,
};

struct Infix {
  std::string_view text;
  Precedence precedence;
};

Infix infix(Op op) {
  switch (op) {
    case Op::Or:
      return {"or", kOr};
    case Op::And:
      return {"and", kAnd};
    case Op::Less:
      return {"<", kComparison};
    case Op::LessEqual:
      return {"<=", kComparison};
    case Op::Greater:
      return {">", kComparison};
    case Op::GreaterEqual:
      return {">=", kComparison};
    case Op::Equal:
      return {"==", kComparison};
    case Op::NotEqual:
      return {"!=", kComparison};
    case Op::Add:
      return {"+", kSum};
    case Op::Subtract:
      return {"-", kSum};
    case Op::Multiply:
      return {"*", kProduct};
    case Op::Divide:
      return {"/", kProduct};
    default:  // Op::Modulo; the other operators are not infix and never ask
      return {"%", kProduct};
  }
}

// There is no literal for n/a; "0 / 0" evaluates to it and folds back to it.
constexpr std::string_view kNotAvailable = "0 / 0";

Precedence precedence(const Node& node) {
  switch (node.op) {
    case Op::Constant:
      if (!node.value) return kProduct;
      return std::signbit(*node.value) ? kUnary : kPrimary;
    case Op::Identifier:
    case Op::Min:
    case Op::Max:
    case Op::Abs:
    case Op::DRatio:
      return kPrimary;
    case Op::Negate:
      return kUnary;
    case Op::Not:
      return kNot;
    case Op::Conditional:
      return kConditional;
    default:
      return infix(node.op).precedence;
  }
}

void print_number(double value, std::string& out) {
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), result.ptr);
}

void print(const Node& node, Precedence weakest_allowed, std::string& out) {
  const bool parenthesize = precedence(node) < weakest_allowed;
  if (parenthesize) out += '(';
  switch (node.op) {
    case Op::Constant:
      if (node.value) {
        print_number(*node.value, out);
      } else {
        out += kNotAvailable;
      }
      break;
    case Op::Identifier:
      out += spell_identifier(node.name);
      break;
    case Op::Negate:
      out += '-';
      print(*node.operands[0], kUnary, out);
      break;
    case Op::Not:
      out += "not ";
      print(*node.operands[0], kNot, out);
      break;
    case Op::Conditional:
      print(*node.operands[0], kOr, out);
      out += " if ";
      print(*node.operands[1], kOr, out);
      out += " else ";
      print(*node.operands[2], kConditional, out);
      break;
    case Op::Min:
    case Op::Max:
    case Op::Abs:
    case Op::DRatio: {
      for (const auto& function : kFunctions) {
        if (function.op == node.op) out += function.name;
      }
      out += '(';
      const char* separator = "";
      for (const auto& operand : node.operands) {
        out += separator;
        print(*operand, kConditional, out);
        separator = ", ";
      }
      out += ')';
      break;
    }
    default: {
      const Infix spelling = infix(node.op);
      // Left-associative levels accept their own kind on the left; comparisons do not chain.
      const auto left_allowed =
          spelling.precedence == kComparison ? static_cast<Precedence>(kComparison + 1) : spelling.precedence;
      print(*node.operands[0], left_allowed, out);
      out += ' ';
      out += spelling.text;
      out += ' ';
      print(*node.operands[1], static_cast<Precedence>(spelling.precedence + 1), out);
      break;
    }
  }
  if (parenthesize) out += ')';
}

}  // namespace

std::string Expression::to_string() const {
  std::string text;
  print(*root_, kConditional, text);
  return text;
}

}  // namespace topdown::expr
