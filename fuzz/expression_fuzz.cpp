// Formulas: parse, print, fold and evaluate arbitrary text. Bad text must end
// in topdown::ParseError; a formula that parses must keep the promises of
// expression.h:
//   - evaluation gives a finite number or n/a, never NaN or infinity;
//   - to_string() parses back to a tree that prints and evaluates the same;
//   - folding with some names known gives the value of evaluating with them;
//   - the compiled Program gives the value of the tree, with the same names
//     answered through slots.
// A broken promise traps, so libFuzzer keeps the input.
#include <cmath>
#include <cstdint>
#include <string_view>

#include <map>
#include <string>
#include <vector>

#include "expr/expression.h"
#include "expr/program.h"
#include "fuzz_values.h"

namespace {

using topdown::expr::Expression;
using topdown::expr::FunctionScope;
using topdown::expr::Value;

// A name that means nothing: the scope throws, as a model's scope does.
bool rejected(std::string_view name) { return topdown::fuzz::name_hash(name) % 17 == 0; }

// Half of the other names are known to fold.
bool known_to_fold(std::string_view name) { return (topdown::fuzz::name_hash(name) >> 8) % 2 == 0; }

const FunctionScope kScope([](std::string_view name) -> Value {
  if (rejected(name)) throw topdown::Error("unknown name '" + std::string(name) + "'");
  return topdown::fuzz::value_for(name);
});

// The value, or nullopt in `threw` when the scope rejected a name on the way.
struct Outcome {
  bool threw = false;
  Value value;
  bool operator==(const Outcome& other) const { return threw == other.threw && value == other.value; }
};

Outcome evaluate(const Expression& expression) {
  Outcome outcome;
  try {
    outcome.value = expression.evaluate(kScope);
  } catch (const topdown::Error&) {
    outcome.threw = true;
  }
  if (outcome.value && !std::isfinite(*outcome.value)) __builtin_trap();
  return outcome;
}

// Answers a Program's slots as kScope answers the names bound to them.
class NamedSlots final : public topdown::expr::Slots {
 public:
  std::uint32_t bind(std::string_view name) {
    const auto [it, added] = slots_.try_emplace(std::string(name), static_cast<std::uint32_t>(names_.size()));
    if (added) names_.push_back(it->first);
    return it->second;
  }
  Value value_of(std::uint32_t slot) override { return kScope.lookup(names_.at(slot)); }

 private:
  std::map<std::string, std::uint32_t, std::less<>> slots_;
  std::vector<std::string> names_;
};

Outcome run_compiled(const Expression& expression) {
  NamedSlots slots;
  const topdown::expr::Program program(expression, [&](std::string_view name) { return slots.bind(name); });
  Outcome outcome;
  try {
    outcome.value = program.run(slots);
  } catch (const topdown::Error&) {
    outcome.threw = true;
  }
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Expression expression;
  try {
    expression = Expression::parse(text, topdown::SourceLocation{"fuzz", 1, 1});
  } catch (const topdown::ParseError&) {
    return 0;
  }
  const Outcome original = evaluate(expression);
  if (!(run_compiled(expression) == original)) __builtin_trap();

  const std::string printed = expression.to_string();
  const Expression reparsed = Expression::parse(printed);  // a ParseError here is a finding
  if (reparsed.to_string() != printed) __builtin_trap();
  if (!(evaluate(reparsed) == original)) __builtin_trap();

  const Expression folded = expression.fold([](std::string_view name) -> std::optional<Value> {
    if (rejected(name) || !known_to_fold(name)) return std::nullopt;
    return topdown::fuzz::value_for(name);
  });
  if (!(evaluate(folded) == original)) __builtin_trap();
  for (const std::string& name : folded.identifiers()) {
    if (!expression.identifiers().count(name)) __builtin_trap();
  }
  return 0;
}
