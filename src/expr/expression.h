#pragma once
// Formulas and thresholds of a model: parsed once, evaluated many times.
//
// Grammar (Python-like, as written in TMA specifications and perf's metric
// JSON), lowest precedence first:
//   expr    := or_expr ["if" or_expr "else" expr]
//   or_expr := and_expr {"or" and_expr}          (also "||")
//   and_expr:= not_expr {"and" not_expr}         (also "&&")
//   not_expr:= "not" not_expr | compare
//   compare := sum [("<"|"<="|">"|">="|"=="|"!=") sum]
//   sum     := product {("+"|"-") product}
//   product := unary {("*"|"/"|"%") unary}
//   unary   := "-" unary | "+" unary | primary
//   primary := number | identifier | func "(" expr {"," expr} ")" | "(" expr ")"
// Functions: min, max, abs, d_ratio (0 when the divisor is 0), and the
// spelling "EV(...)"-free forms only; everything else is an identifier.
// perf's has_event(E) and source_count(E) ask about an event rather than
// compute, and a threshold's over(NODE) asks whether another node is over its
// threshold, so each call is kept as one identifier, "has_event(E)", for the
// Scope (or fold) to answer. perf's thresholds write "&" and "|" for and/or.
//
// Identifiers are opaque names resolved by a Scope at evaluation time:
// events with modifiers (UOPS_EXECUTED.CORE:c1, BR_MISP_EXEC.ALL_BRANCHES:u0xE4,
// CPU_CLK_UNHALTED.THREAD_P:SUP), perf PMU syntax (msr/tsc/,
// cpu/event=0x3c,umask=0x0/), perf's '@' form (msr@tsc@ is read as msr/tsc/),
// backslash escapes (topdown\-fe\-bound), '#' variables (#smt_on, #slots),
// the special name interval-s, node names, constants and run variables.
//
// Values are std::optional<double>; std::nullopt means "n/a": a division by
// zero, or anything computed from an n/a value, is n/a and never a number.
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "common/error.h"

namespace topdown::expr {

using Value = std::optional<double>;

// Resolves identifiers during evaluation. Return std::nullopt for "n/a"
// (for example an event that was not counted); throw topdown::Error for a
// name that means nothing in this scope.
class Scope {
 public:
  virtual ~Scope() = default;
  virtual Value lookup(std::string_view name) const = 0;
};

// Adapts a callable to a Scope.
class FunctionScope final : public Scope {
 public:
  explicit FunctionScope(std::function<Value(std::string_view)> fn) : fn_(std::move(fn)) {}
  Value lookup(std::string_view name) const override { return fn_(name); }

 private:
  std::function<Value(std::string_view)> fn_;
};

struct Node;  // the immutable syntax tree, private to the engine

class Expression {
 public:
  Expression();  // the constant 0

  // Parses `text`. On error throws ParseError whose location is `where`
  // advanced to the offending character (columns count on the same line;
  // a newline in `text` advances the line).
  static Expression parse(std::string_view text, const SourceLocation& where = {});

  static Expression constant(double value);  // NaN or inf gives the n/a constant

  Value evaluate(const Scope& scope) const;

  // Partial evaluation: identifiers for which `known` returns a value are
  // replaced by it, constant sub-expressions are folded, and an "a if c else
  // b" whose condition becomes known keeps only the taken branch. Used to drop
  // events that a run can never need (for example SMT-only terms without SMT).
  Expression fold(const std::function<std::optional<Value>(std::string_view)>& known) const;

  // Every identifier the expression still refers to.
  std::set<std::string> identifiers() const;

  // Top-down rewrite: `replace` sees the whole expression, then each part of
  // what it did not replace; where it returns an expression, that takes the
  // part's place. Used to translate perf's metric files (its literals, a
  // threshold's own name to `this`, a parent's whole threshold to parent_over).
  Expression rewrite(const std::function<std::optional<Expression>(const Expression&)>& replace) const;

  // The name when the whole expression is one identifier.
  std::optional<std::string> identifier() const;

  // A complement: a constant minus the rest (1 - X, 1 - A - B), whose value
  // falls as the events of the rest rise.
  bool is_complement() const;

  bool is_constant() const;  // no identifiers left
  // Canonical text that parses back to an equal tree. An n/a constant (left
  // by fold) has no literal and prints as "0 / 0", which folds back to it.
  std::string to_string() const;

 private:
  explicit Expression(std::shared_ptr<const Node> root);
  friend class Program;  // compiles the tree (expr/program.h)
  std::shared_ptr<const Node> root_;
};

}  // namespace topdown::expr
