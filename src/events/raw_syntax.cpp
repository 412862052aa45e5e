#include "events/raw_syntax.h"

#include <charconv>

#include "common/error.h"

namespace topdown::events {
namespace {

bool is_pmu_name(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::optional<uint64_t> parse_digits(std::string_view text, int base) {
  uint64_t value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || status != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

uint64_t parse_number(std::string_view text, std::string_view what) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const auto value = hex ? parse_digits(text.substr(2), 16) : parse_digits(text, 10);
  if (!value) {
    throw Error(std::string(what) + ": '" + std::string(text) + "' is not a number (write 0x1f or 31)");
  }
  return *value;
}

std::optional<PmuSpelling> split_pmu_spelling(std::string_view text) {
  const size_t open = text.find('/');
  const size_t close = text.rfind('/');
  if (open == std::string_view::npos || close == open || !is_pmu_name(text.substr(0, open))) {
    return std::nullopt;
  }
  PmuSpelling spelling;
  spelling.pmu = std::string(text.substr(0, open));
  spelling.modifiers = std::string(text.substr(close + 1));
  std::string_view rest = text.substr(open + 1, close - open - 1);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t equals = item.find('=');
    PmuTerm term{std::string(item.substr(0, equals)), std::nullopt};
    if (equals != std::string_view::npos) term.value = std::string(item.substr(equals + 1));
    if (term.name.empty()) {
      throw Error("event '" + std::string(text) + "': empty term; write pmu/term=value,.../");
    }
    spelling.terms.push_back(std::move(term));
  }
  return spelling;
}

std::optional<RawSpelling> split_raw_spelling(std::string_view text) {
  if (text.size() < 2 || text[0] != 'r') return std::nullopt;
  const size_t colon = text.find(':');
  const std::string_view digits = colon == std::string_view::npos ? text.substr(1) : text.substr(1, colon - 1);
  const auto config = parse_digits(digits, 16);
  if (!config) return std::nullopt;
  RawSpelling raw{*config, ""};
  if (colon != std::string_view::npos) raw.modifiers = std::string(text.substr(colon));
  return raw;
}

}  // namespace topdown::events
