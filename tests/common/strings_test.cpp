#include "common/strings.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace topdown {
namespace {

using Words = std::vector<std::string_view>;

TEST(Lowercase, TurnsAsciiCapitalsOnly) {
  EXPECT_EQ(lowercase("Frontend_Bound ZEN5"), "frontend_bound zen5");
  EXPECT_EQ(lowercase(""), "");
  // Bytes outside ASCII (UTF-8 here) stay as they are, whatever the locale.
  EXPECT_EQ(lowercase("\xC3\x84rger-X"), "\xC3\x84rger-x");
}

TEST(Trim, RemovesWhiteSpaceAroundOnly) {
  EXPECT_EQ(trim("  a b \t"), "a b");
  EXPECT_EQ(trim("\r\n\v\fword\r\n"), "word");
  EXPECT_EQ(trim("plain"), "plain");
  EXPECT_EQ(trim(" \t "), "");
  EXPECT_EQ(trim(""), "");
}

TEST(SplitWords, DropsEmptyRuns) {
  EXPECT_EQ(split_words("  AMD\t0x19   0x10-0x1F "), (Words{"AMD", "0x19", "0x10-0x1F"}));
  EXPECT_EQ(split_words("x;;y;", ";"), (Words{"x", "y"}));
  EXPECT_EQ(split_words("a b\tc", " "), (Words{"a", "b\tc"}));
  EXPECT_EQ(split_words(""), Words{});
  EXPECT_EQ(split_words(" \t "), Words{});
}

TEST(SplitWords, WordsPointIntoTheText) {
  const std::string_view line = "name =  cpu/event=0x76/";
  const Words words = split_words(line);
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[2].data() - line.data(), 8);  // column 9
}

TEST(Join, PutsTheSeparatorBetweenItems) {
  EXPECT_EQ(join(std::vector<std::string>{"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(join(std::vector<std::string_view>{"A", "B"}, " -> "), "A -> B");
  EXPECT_EQ(join(std::vector<std::string>{"only"}, ", "), "only");
  EXPECT_EQ(join(std::vector<std::string>{}, ", "), "");
  EXPECT_EQ(join(std::vector<int>{10, 20}, ","), "10,20");
}

}  // namespace
}  // namespace topdown
