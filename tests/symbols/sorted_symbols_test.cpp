// The sorted table behind kallsyms and perf-PID.map: which range holds an
// address when ranges share a start, have no size, or overlap.
#include "symbols/sorted_symbols.h"

#include <gtest/gtest.h>

namespace topdown::symbols {
namespace {

std::string name_at(const SortedSymbols& symbols, uint64_t address) {
  const auto range = symbols.find(address);
  return range ? std::string(range->name) : "(none)";
}

TEST(SortedSymbols, ASizelessRangeEndsWhereTheNextStartFollows) {
  SortedSymbols symbols;
  symbols.add(0x3000, 0, "third");
  symbols.add(0x1000, 0, "first");
  symbols.add(0x2000, 0, "second_alias");
  symbols.add(0x2000, 0, "second");
  symbols.sort();
  EXPECT_EQ(name_at(symbols, 0x0fff), "(none)");
  EXPECT_EQ(name_at(symbols, 0x1000), "first");
  EXPECT_EQ(name_at(symbols, 0x1fff), "first");
  // Of two symbols at one address the last added wins, and it reaches to
  // the next greater start, not to its twin.
  EXPECT_EQ(name_at(symbols, 0x2000), "second");
  EXPECT_EQ(symbols.find(0x2abc)->end, 0x3000u);
  EXPECT_EQ(name_at(symbols, 0xffffffff), "third");  // the last reaches to the end of memory
}

TEST(SortedSymbols, ASizedRangeEndsAtItsSizeAndANewerOverlapWins) {
  SortedSymbols symbols;
  symbols.add(0x1000, 0x1100, "old_code");
  symbols.add(0x1080, 0x10c0, "recompiled");
  symbols.sort();
  EXPECT_EQ(name_at(symbols, 0x1010), "old_code");
  EXPECT_EQ(name_at(symbols, 0x1090), "recompiled");
  EXPECT_EQ(name_at(symbols, 0x10c0), "(none)");  // past the newer range: the older one is not looked at again
  EXPECT_EQ(name_at(symbols, 0x1100), "(none)");
  EXPECT_TRUE(SortedSymbols().empty());
}

}  // namespace
}  // namespace topdown::symbols
