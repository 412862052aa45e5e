// Recursive descent over the grammar in expression.h, one function per level.
#include <algorithm>
#include <span>
#include <utility>

#include "expr/identifier.h"
#include "expr/lexer.h"
#include "expr/node.h"

namespace topdown::expr {
namespace {

// Limits that keep parsing, evaluation and destruction of hostile input off
// the end of the stack; real formulas stay far below both.
constexpr int kMaxNesting = 200;
constexpr std::uint32_t kMaxHeight = 1000;

struct BinaryOperator {
  TokenKind token;
  Op op;
};

constexpr std::array<BinaryOperator, 1> kOr = {{{TokenKind::Or, Op::Or}}};
constexpr std::array<BinaryOperator, 1> kAnd = {{{TokenKind::And, Op::And}}};
constexpr std::array<BinaryOperator, 6> kComparisons = {{
    {TokenKind::Less, Op::Less},
    {TokenKind::LessEqual, Op::LessEqual},
    {TokenKind::Greater, Op::Greater},
    {TokenKind::GreaterEqual, Op::GreaterEqual},
    {TokenKind::Equal, Op::Equal},
    {TokenKind::NotEqual, Op::NotEqual},
}};
constexpr std::array<BinaryOperator, 2> kSums = {{{TokenKind::Plus, Op::Add}, {TokenKind::Minus, Op::Subtract}}};
constexpr std::array<BinaryOperator, 3> kProducts = {{
    {TokenKind::Star, Op::Multiply},
    {TokenKind::Slash, Op::Divide},
    {TokenKind::Percent, Op::Modulo},
}};

std::string function_list() {
  std::string list;
  for (const auto& function : kFunctions) list += std::string(function.name) + ", ";
  for (const auto query : kNameQueries) list += std::string(query) + ", ";
  list.resize(list.size() - 2);
  return list;
}

class Parser {
 public:
  Parser(std::string_view text, const SourceLocation& where) : lexer_(text, where) { advance(); }

  NodePtr parse_formula() {
    auto root = parse_conditional();
    if (current_.kind != TokenKind::End) fail_expected("an operator or end of formula");
    return root;
  }

 private:
  using Level = NodePtr (Parser::*)();

  // Counts the recursion of the self-nesting rules (parentheses, unary
  // operators, else-chains) so hostile input cannot exhaust the stack.
  class Nesting {
   public:
    explicit Nesting(Parser& parser) : parser_(parser) {
      if (++parser_.nesting_ > kMaxNesting) {
        parser_.lexer_.fail(parser_.current_.offset, "formula nests deeper than " + std::to_string(kMaxNesting) +
                                                         " levels; split it into named definitions");
      }
    }
    ~Nesting() { --parser_.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& parser_;
  };

  void advance() { current_ = lexer_.next(); }

  bool accept(TokenKind kind) {
    if (current_.kind != kind) return false;
    advance();
    return true;
  }

  void expect(TokenKind kind, std::string_view what) {
    if (!accept(kind)) fail_expected(what);
  }

  [[noreturn]] void fail_expected(std::string_view what) const {
    lexer_.fail(current_.offset, "expected " + std::string(what) + " but found " + describe(current_));
  }

  NodePtr combine(Op op, std::vector<NodePtr> operands, std::size_t offset) const {
    auto node = make_operation(op, std::move(operands));
    if (node->height > kMaxHeight) {
      lexer_.fail(offset, "formula has more than " + std::to_string(kMaxHeight) +
                              " nested operations; split it into named definitions");
    }
    return node;
  }

  // Python's conditional: "a if c else b", right-associative through `else`.
  NodePtr parse_conditional() {
    const Nesting nesting(*this);
    auto if_true = parse_or();
    const std::size_t offset = current_.offset;
    if (!accept(TokenKind::If)) return if_true;
    auto condition = parse_or();
    expect(TokenKind::Else, "'else'");
    auto if_false = parse_conditional();
    return combine(Op::Conditional, {std::move(if_true), std::move(condition), std::move(if_false)}, offset);
  }

  NodePtr parse_binary(Level operand, std::span<const BinaryOperator> operators, bool chains) {
    auto left = (this->*operand)();
    for (;;) {
      const auto match = std::find_if(operators.begin(), operators.end(), [&](const BinaryOperator& candidate) {
        return candidate.token == current_.kind;
      });
      if (match == operators.end()) return left;
      const std::size_t offset = current_.offset;
      advance();
      auto right = (this->*operand)();
      left = combine(match->op, {std::move(left), std::move(right)}, offset);
      if (!chains) return left;
    }
  }

  NodePtr parse_or() { return parse_binary(&Parser::parse_and, kOr, true); }
  NodePtr parse_and() { return parse_binary(&Parser::parse_not, kAnd, true); }

  NodePtr parse_not() {
    const std::size_t offset = current_.offset;
    if (!accept(TokenKind::Not)) return parse_comparison();
    const Nesting nesting(*this);
    return combine(Op::Not, {parse_not()}, offset);
  }

  NodePtr parse_comparison() {
    auto comparison = parse_binary(&Parser::parse_sum, kComparisons, false);
    const bool chained = std::any_of(kComparisons.begin(), kComparisons.end(),
                                     [&](const BinaryOperator& candidate) { return candidate.token == current_.kind; });
    if (chained) fail_expected("'and' between two comparisons");
    return comparison;
  }

  NodePtr parse_sum() { return parse_binary(&Parser::parse_product, kSums, true); }
  NodePtr parse_product() { return parse_binary(&Parser::parse_unary, kProducts, true); }

  NodePtr parse_unary() {
    const std::size_t offset = current_.offset;
    if (current_.kind != TokenKind::Minus && current_.kind != TokenKind::Plus) return parse_primary();
    const bool negate = current_.kind == TokenKind::Minus;
    advance();
    const Nesting nesting(*this);
    auto operand = parse_unary();
    return negate ? combine(Op::Negate, {std::move(operand)}, offset) : operand;
  }

  NodePtr parse_primary() {
    switch (current_.kind) {
      case TokenKind::Number: {
        auto number = make_constant(current_.number);
        advance();
        return number;
      }
      case TokenKind::LeftParen: {
        advance();
        auto inner = parse_conditional();
        expect(TokenKind::RightParen, "')'");
        return inner;
      }
      case TokenKind::Identifier: {
        Token name = std::move(current_);
        advance();
        if (current_.kind == TokenKind::LeftParen) return parse_call(name);
        return make_identifier(std::move(name.name));
      }
      default:
        fail_expected("a number, name or '('");
    }
  }

  NodePtr parse_call(const Token& function) {
    advance();  // '('
    const auto query = std::find(std::begin(kNameQueries), std::end(kNameQueries), function.name);
    if (function.plain && query != std::end(kNameQueries)) {
      if (current_.kind != TokenKind::Identifier) fail_expected("a name");
      auto name = function.name + '(' + current_.name + ')';
      advance();
      expect(TokenKind::RightParen, "')'");
      return make_identifier(std::move(name));
    }
    const auto spec = std::find_if(kFunctions.begin(), kFunctions.end(),
                                   [&](const Function& candidate) { return candidate.name == function.name; });
    if (!function.plain || spec == kFunctions.end()) {
      lexer_.fail(function.offset,
                  "unknown function '" + std::string(function.text) + "'; the functions are " + function_list());
    }
    std::vector<NodePtr> arguments;
    do {
      arguments.push_back(parse_conditional());
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RightParen, "',' or ')'");
    if (arguments.size() < spec->min_operands || arguments.size() > spec->max_operands) {
      const std::string wanted = spec->min_operands == spec->max_operands
                                     ? std::to_string(spec->min_operands)
                                     : "at least " + std::to_string(spec->min_operands);
      const std::string noun = spec->max_operands == 1 ? " argument" : " arguments";
      lexer_.fail(function.offset, std::string(spec->name) + "() takes " + wanted + noun + " but got " +
                                       std::to_string(arguments.size()));
    }
    return combine(spec->op, std::move(arguments), function.offset);
  }

  Lexer lexer_;
  Token current_;
  int nesting_ = 0;
};

}  // namespace

Expression Expression::parse(std::string_view text, const SourceLocation& where) {
  Parser parser(text, where);
  return Expression(parser.parse_formula());
}

}  // namespace topdown::expr
