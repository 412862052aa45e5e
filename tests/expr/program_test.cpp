#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "expr/program.h"
#include "support.h"

namespace topdown::expr {
namespace {

using testing::Names;

const Value kNa = std::nullopt;

// Slots numbered in the order the program binds names; each answers as the
// test's names do, and counts how often it is read.
class CountingSlots final : public Slots {
 public:
  explicit CountingSlots(const Names& names) : names_(names) {}
  std::uint32_t bind(std::string_view name) {
    bound_.emplace_back(name);
    return static_cast<std::uint32_t>(bound_.size() - 1);
  }
  Value value_of(std::uint32_t slot) override {
    ++reads_[bound_.at(slot)];
    const auto found = names_.find(bound_.at(slot));
    if (found == names_.end()) throw Error("no name '" + bound_.at(slot) + "'");
    return found->second;
  }
  int reads(const std::string& name) const { return reads_.count(name) ? reads_.at(name) : 0; }
  size_t bound() const { return bound_.size(); }

 private:
  const Names& names_;
  std::vector<std::string> bound_;
  std::map<std::string, int> reads_;
};

Value run(const std::string& text, CountingSlots& slots) {
  const Program program(Expression::parse(text), [&](std::string_view name) { return slots.bind(name); });
  return program.run(slots);
}

TEST(Program, GivesTheTreesValueForEveryKindOfFormula) {
  const Names names = {{"a", 3.0}, {"b", 4.0}, {"zero", 0.0}, {"na", kNa}};
  for (const std::string text : {"a + b * 2 - a / b",
                                 "-a % b",
                                 "abs(a - b)",
                                 "min(a, b, 2)",
                                 "max(a, b)",
                                 "d_ratio(a, zero)",
                                 "a / zero",
                                 "a if b > a else b",
                                 "a if na else b",
                                 "not a",
                                 "a and b",
                                 "a or na",
                                 "zero and na",
                                 "na + 1",
                                 "a < b",
                                 "a <= b",
                                 "a >= b",
                                 "a == b",
                                 "a != b",
                                 "min(a, na)",
                                 "(a + b) * (a - b) / (b - a)"}) {
    CountingSlots slots(names);
    EXPECT_EQ(run(text, slots), Expression::parse(text).evaluate(testing::scope_of(names))) << text;
  }
}

TEST(Program, BindsEachIdentifierAtCompileTimeAndReadsOnlyTakenBranches) {
  const Names names = {{"a", 3.0}, {"b", 4.0}, {"c", 5.0}};
  CountingSlots slots(names);
  EXPECT_EQ(run("a if b > a else c * a", slots), 3.0);
  EXPECT_EQ(slots.bound(), 5u);    // asked once per occurrence: a, b, a, c, a
  EXPECT_EQ(slots.reads("c"), 0);  // the branch not taken is not read
  EXPECT_EQ(slots.reads("a"), 2);  // the condition and the value
}

TEST(Program, ANameTheSlotsRejectThrowsWhateverTheData) {
  const Names names = {{"a", kNa}};
  CountingSlots slots(names);
  // min and max read every operand, so the unknown name is reported even
  // though the value is n/a anyway.
  EXPECT_THROW(run("min(a, unknown)", slots), Error);
  CountingSlots short_circuit(names);
  EXPECT_EQ(run("a and unknown", short_circuit), kNa);  // n/a stops the walk first
}

}  // namespace
}  // namespace topdown::expr
