#include "import/text_fields.h"

#include <charconv>
#include <cmath>

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
  std::string shown(text.substr(0, 60));
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return text.size() > shown.size() ? shown + "..." : shown;
}

}  // namespace topdown::import
