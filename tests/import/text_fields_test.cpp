#include "import/text_fields.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <string>

namespace topdown::import {
namespace {

// What from_chars reads from the whole text, when it is a finite count >= 0.
std::optional<double> reference(std::string_view text) {
  double value = 0;
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || stop != text.data() + text.size() || !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  return value;
}

// perf's counts, times and percentages take a shortcut; every text gives
// exactly the double from_chars gives (or none, as it does).
TEST(ParseCount, EqualsFromCharsBitForBit) {
  for (const std::string text : {"1000450000",
                                 "50.00",
                                 "100.00",
                                 "1.000450000",
                                 "0.1",
                                 "0.3",
                                 ".5",
                                 "5.",
                                 "0",
                                 "000123",
                                 "999999999999999",
                                 "99999999999999.9",
                                 "9007199254740993",
                                 "1234567890123456",
                                 "12345678901234567890",
                                 "0.000000000000001",
                                 "123456789.123456",
                                 "1e3",
                                 "1.5E-3",
                                 "",
                                 ".",
                                 "..",
                                 "1.2.3",
                                 "12a",
                                 "a12",
                                 "-5",
                                 "+5",
                                 " 5",
                                 "5 ",
                                 "inf",
                                 "nan",
                                 "1e400",
                                 "0x10"}) {
    SCOPED_TRACE(text);
    const auto parsed = parse_count(text);
    const auto expected = reference(text);
    ASSERT_EQ(parsed.has_value(), expected.has_value());
    if (parsed) {
      EXPECT_EQ(*parsed, *expected);  // exact: the same double
    }
  }
}

}  // namespace
}  // namespace topdown::import
