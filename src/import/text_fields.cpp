#include "import/text_fields.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "common/printable.h"

namespace topdown::import {

std::optional<double> parse_count(std::string_view text) {
  // Most counts are whole numbers: below 2^53 read as integers, exactly the
  // double from_chars would give, in a fraction of its time.
  constexpr size_t kExactDigits = 15;
  if (!text.empty() && text.size() <= kExactDigits &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    uint64_t whole = 0;
    std::from_chars(text.data(), text.data() + text.size(), whole);
    return static_cast<double>(whole);
  }
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
