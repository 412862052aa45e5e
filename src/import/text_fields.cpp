#include "import/text_fields.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "common/printable.h"

namespace topdown::import {

namespace {

// Counts, times and percentages as perf writes them ("1000450000", "50.00",
// "1.000450000"): with at most 15 digits, the digits read as an integer
// (exact below 2^53) over a power of ten (exact) is one correctly rounded
// division, the very double from_chars gives, in a fraction of its time.
std::optional<double> plain_decimal(std::string_view text) {
  constexpr size_t kExactDigits = 15;
  static constexpr std::array<double, kExactDigits + 1> kPowersOfTen = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  if (text.size() > kExactDigits + 1) return std::nullopt;  // more digits than that, point or not
  const char* at = text.data();
  const char* const end = at + text.size();
  uint64_t digits = 0;
  const auto read_digits = [&] {
    const char* const start = at;
    for (; at != end && static_cast<unsigned char>(*at - '0') <= 9; ++at)
      digits = digits * 10 + static_cast<uint64_t>(*at - '0');
    return static_cast<size_t>(at - start);
  };
  const size_t whole = read_digits();
  size_t decimals = 0;
  if (at != end) {
    if (*at++ != '.') return std::nullopt;
    decimals = read_digits();
    if (at != end) return std::nullopt;
  }
  if (whole + decimals == 0 || whole + decimals > kExactDigits) return std::nullopt;
  return static_cast<double>(digits) / kPowersOfTen[decimals];
}

}  // namespace

std::optional<double> parse_count(std::string_view text) {
  if (const auto plain = plain_decimal(text)) return plain;
  double value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

bool looks_like_number(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return !text.empty() && error != std::errc::invalid_argument && stop == end;
}

std::string excerpt(std::string_view text) {
  constexpr size_t kLongest = 60;
  size_t cut = std::min(text.size(), kLongest);
  // Not inside a UTF-8 character: its continuation bytes are 10xxxxxx.
  while (cut < text.size() && cut > kLongest - 3 && (static_cast<unsigned char>(text[cut]) & 0xc0u) == 0x80u) --cut;
  const std::string shown = printable(text.substr(0, cut));
  return cut < text.size() ? shown + "..." : shown;
}

}  // namespace topdown::import
