// This thread's own stack, saved as a --call-graph dwarf sample saves it and
// unwound through its /proc/self/maps: the frames are the calls that led to
// it, innermost first, named by the symbolizer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "self_maps.h"
#include "self_stack.h"
#include "symbols/symbolizer.h"

namespace topdown::symbols {
namespace {

constexpr uint32_t kPid = 4321;

Symbolizer self_symbolizer() {
  Symbolizer symbolizer;
  for (const auto& m : testing::self_mappings()) {
    if (m.executable) symbolizer.map(kPid, m.start, m.end - m.start, m.file_offset, m.path, "");
  }
  return symbolizer;
}

#if defined(__x86_64__)

__attribute__((noinline)) testing::SavedStack innermost() {
  testing::SavedStack saved = testing::save_stack(8192);
  asm volatile("");  // no tail call
  return saved;
}
__attribute__((noinline)) testing::SavedStack middle() {
  testing::SavedStack saved = innermost();
  asm volatile("");
  return saved;
}
__attribute__((noinline)) testing::SavedStack outermost() {
  testing::SavedStack saved = middle();
  asm volatile("");
  return saved;
}

// The function names of the frames, a caller's by its call.
std::vector<std::string> names(Symbolizer& symbolizer, const std::vector<uint64_t>& frames) {
  std::vector<std::string> functions;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    functions.push_back(symbolizer.resolve(kPid, frames[i] - (i == 0 ? 0 : 1), false).function);
  }
  return functions;
}

std::string name_part(const std::string& function) { return function.substr(0, function.rfind('(')); }

TEST(Unwinder, ASavedStackUnwindsToTheCallsThatLedToIt) {
  const testing::SavedStack saved = outermost();
  Symbolizer symbolizer = self_symbolizer();
  std::vector<uint64_t> frames;
  symbolizer.unwind(kPid, static_cast<uint32_t>(::gettid()), {perf::user_register_mask(), saved.registers, saved.stack},
                    127, frames);
  const std::vector<std::string> functions = names(symbolizer, frames);
  ASSERT_GE(functions.size(), 5u) << "CFI of this test and of gtest up the stack";
  EXPECT_EQ(name_part(functions[0]), "topdown::symbols::testing::save_stack") << "the saved ip is save_stack's";
  EXPECT_EQ(name_part(functions[1]), "topdown::symbols::(anonymous namespace)::innermost");
  EXPECT_EQ(name_part(functions[2]), "topdown::symbols::(anonymous namespace)::middle");
  EXPECT_EQ(name_part(functions[3]), "topdown::symbols::(anonymous namespace)::outermost");
  EXPECT_NE(name_part(functions[4]).find("ASavedStackUnwindsToTheCallsThatLedToIt"), std::string::npos) << functions[4];

  std::vector<uint64_t> bounded;
  symbolizer.unwind(kPid, static_cast<uint32_t>(::gettid()), {perf::user_register_mask(), saved.registers, saved.stack},
                    3, bounded);
  EXPECT_EQ(bounded, std::vector<uint64_t>(frames.begin(), frames.begin() + 3)) << "at most max_frames";
}

TEST(Unwinder, AStackCutShortGivesTheFramesItHolds) {
  const testing::SavedStack saved = outermost();
  Symbolizer symbolizer = self_symbolizer();
  std::vector<uint64_t> frames;
  symbolizer.unwind(kPid, static_cast<uint32_t>(::gettid()), {perf::user_register_mask(), saved.registers, {}}, 127,
                    frames);
  ASSERT_GE(frames.size(), 1u);
  EXPECT_LT(frames.size(), 4u) << "without the stack, no caller's return address past the registers";
}

#endif

TEST(Unwinder, RegistersWithoutIpOrStackPointerGiveNoFrame) {
  Symbolizer symbolizer = self_symbolizer();
  std::vector<uint64_t> frames;
  symbolizer.unwind(kPid, 1, {0, {}, {}}, 127, frames);
  EXPECT_TRUE(frames.empty());
}

}  // namespace
}  // namespace topdown::symbols
