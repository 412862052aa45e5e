// Mappings follow the processes: fork inherits them, exec and exit drop
// them, a new mapping replaces what it overlaps; and what was resolved once
// is looked up, not resolved again.
#include <gtest/gtest.h>

#include "fixture_library.h"
#include "self_process.h"
#include "symbols/symbolizer.h"

namespace topdown::symbols {
namespace {

using testing::mapping_of;
using testing::SelfMapping;

constexpr uint64_t kBase = 0x7f3400000000;
const std::string kCompute = "fixture::Widget::compute(int) const";

// Maps the fixture library's text at kBase in `pid`; returns compute()'s address there.
uint64_t map_fixture(Symbolizer& symbolizer, uint32_t pid, uint64_t base = kBase) {
  uintptr_t hidden = fixture::hidden_function_address();
  SelfMapping text = mapping_of(hidden);
  symbolizer.map(pid, base, text.end - text.start, text.file_offset, text.path, "");
  return base + (hidden - text.start);
}

const std::string kHidden = "fixture::hidden_function(int)";

TEST(ProcessTracking, AChildInheritsItsParentsMappings) {
  Symbolizer symbolizer;
  uint64_t address = map_fixture(symbolizer, 100);
  symbolizer.fork(101, 100);
  EXPECT_EQ(symbolizer.resolve(101, address, false).function, kHidden);
  EXPECT_EQ(symbolizer.resolve(100, address, false).function, kHidden);
}

TEST(ProcessTracking, AChildsNewMappingsAreItsOwn) {
  Symbolizer symbolizer;
  uint64_t address = map_fixture(symbolizer, 100);
  symbolizer.fork(101, 100);
  symbolizer.map(101, address & ~0xfffull, 0x1000, 0, "//anon", "");
  EXPECT_EQ(symbolizer.resolve(101, address, false).function, "[unknown]");
  EXPECT_EQ(symbolizer.resolve(100, address, false).function, kHidden);
}

TEST(ProcessTracking, ExecDropsTheOldImage) {
  Symbolizer symbolizer;
  uint64_t address = map_fixture(symbolizer, 100);
  symbolizer.fork(101, 100);
  symbolizer.exec(101);
  EXPECT_EQ(symbolizer.resolve(101, address, false).function, "[unknown]");
  EXPECT_EQ(symbolizer.resolve(100, address, false).function, kHidden);
  uint64_t remapped = map_fixture(symbolizer, 101, kBase + 0x100000000);
  EXPECT_EQ(symbolizer.resolve(101, remapped, false).function, kHidden);
}

TEST(ProcessTracking, ExitForgetsTheProcess) {
  Symbolizer symbolizer;
  uint64_t address = map_fixture(symbolizer, 100);
  symbolizer.fork(101, 100);
  symbolizer.exit(100);
  EXPECT_EQ(symbolizer.resolve(100, address, false).function, "[unknown]");
  EXPECT_EQ(symbolizer.resolve(101, address, false).function, kHidden);
}

TEST(ProcessTracking, ANewThreadKeepsItsProcessMappings) {
  Symbolizer symbolizer;
  uint64_t address = map_fixture(symbolizer, 100);
  symbolizer.fork(100, 100);
  EXPECT_EQ(symbolizer.resolve(100, address, false).function, kHidden);
}

TEST(ProcessTracking, AMappingReplacesThePartItOverlaps) {
  Symbolizer symbolizer;
  uint64_t address = map_fixture(symbolizer, 100);
  uint64_t page = address & ~0xfffull;
  symbolizer.map(100, page, 0x1000, 0, "[heap]", "");
  EXPECT_EQ(symbolizer.resolve(100, address, false).module, "[heap]");
  // Before and after the hole, the library is still mapped where it was.
  SelfMapping text = mapping_of(fixture::hidden_function_address());
  uint64_t before = page - 1;
  uint64_t after = page + 0x1000;
  if (before >= kBase) {
    EXPECT_EQ(symbolizer.resolve(100, before, false).module, "libsymbols_fixture.so");
  }
  if (after < kBase + (text.end - text.start)) {
    EXPECT_EQ(symbolizer.resolve(100, after, false).module, "libsymbols_fixture.so");
  }
}

TEST(Caching, ARepeatedAddressGivesTheSameResolvedLocation) {
  Symbolizer symbolizer;
  uint64_t address = map_fixture(symbolizer, 100);
  const Location& first = symbolizer.resolve(100, address, false);
  const Location& second = symbolizer.resolve(100, address, false);
  EXPECT_EQ(&first, &second);
}

TEST(Caching, AFileMappedByTwoProcessesAtOtherAddressesIsResolvedOnce) {
  Symbolizer symbolizer;
  uint64_t in_first = map_fixture(symbolizer, 100, kBase);
  uint64_t in_second = map_fixture(symbolizer, 200, kBase + 0x200000000);
  const Location& first = symbolizer.resolve(100, in_first, false);
  const Location& second = symbolizer.resolve(200, in_second, false);
  EXPECT_EQ(first.function, kHidden);
  EXPECT_EQ(&first, &second);
}

TEST(Caching, LocationsOutliveTheirProcess) {
  Symbolizer symbolizer;
  uint64_t address = map_fixture(symbolizer, 100);
  const Location& location = symbolizer.resolve(100, address, false);
  symbolizer.exit(100);
  Symbolizer moved = std::move(symbolizer);
  EXPECT_EQ(location.function, kHidden);
}

}  // namespace
}  // namespace topdown::symbols
