#include "import/text_fields.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/printable.h"

namespace topdown::import {

std::optional<double> parse_count(std::string_view text) {
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
