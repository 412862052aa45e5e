#include "model/entry_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <tuple>

#include "common/strings.h"

namespace topdown::model {
namespace {

// Decimal, or hexadecimal with a 0x prefix.
std::optional<unsigned> parse_unsigned(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::string section_title(const Section& section) {
  return "[" + section.kind + (section.name.empty() ? "" : " " + section.name) + "]";
}

void check_keys(const Section& section, const Keys& allowed) {
  for (const Entry& entry : section.entries) {
    if (std::find(allowed.begin(), allowed.end(), entry.key) == allowed.end()) {
      throw ParseError(entry.key_at, "unknown key '" + entry.key + "' in " + section_title(section) +
                                         "; allowed keys: " + join(allowed, ", "));
    }
  }
}

void expect_no_name(const Section& section) {
  if (!section.name.empty()) {
    throw ParseError(section.name_at, "section [" + section.kind + "] takes no name; write [" + section.kind + "]");
  }
}

std::string value_of(const Section& section, std::string_view key) {
  const Entry* entry = section.find(key);
  return entry ? entry->text() : std::string();
}

std::vector<ListItem> split_list(const Entry& entry) {
  const std::string text = entry.text();
  std::vector<ListItem> items;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = std::min(text.find(',', begin), text.size());
    std::size_t first = begin;
    while (first < end && text[first] == ' ') ++first;
    std::size_t last = end;
    while (last > first && text[last - 1] == ' ') --last;
    if (first == last) {
      throw ParseError(entry.locate(first),
                       "empty item in the list of '" + entry.key + "'; separate items with single commas");
    }
    items.push_back({text.substr(first, last - first), entry.locate(first)});
    begin = end + 1;
  }
  return items;
}

CpuMatch parse_cpu(const ListItem& item) {
  auto error = [&](const std::string& why) {
    return ParseError(item.where, "bad cpus entry '" + item.text + "': " + why +
                                      "; write VENDOR FAMILY [MODELMIN-MODELMAX [STEPMIN-STEPMAX]], e.g. 'AMD 0x19 "
                                      "0x10-0x1F'");
  };
  auto fail = [&](const std::string& why) -> CpuMatch { throw error(why); };
  const std::vector<std::string_view> found = split_words(item.text, " ");
  const std::vector<std::string> words(found.begin(), found.end());
  if (words.size() < 2 || words.size() > 4) return fail("expected 2 to 4 words");
  CpuMatch match;
  if (words[0] == "AMD") {
    match.vendor = cpu::Vendor::Amd;
  } else if (words[0] == "Intel") {
    match.vendor = cpu::Vendor::Intel;
  } else if (words[0] == "Arm") {
    match.vendor = cpu::Vendor::Arm;
  } else {
    return fail("unknown vendor '" + words[0] + "' (AMD, Intel or Arm)");
  }
  const std::optional<unsigned> family = parse_unsigned(words[1]);
  if (!family) return fail("family '" + words[1] + "' is not a number");
  match.family = *family;
  auto parse_range = [&](const std::string& range, std::string_view what) -> std::pair<unsigned, unsigned> {
    const std::size_t dash = range.find('-');
    const std::optional<unsigned> low = parse_unsigned(range.substr(0, dash));
    const std::optional<unsigned> high = dash == std::string::npos ? low : parse_unsigned(range.substr(dash + 1));
    if (!low || !high || *low > *high) throw error(std::string(what) + " range '" + range + "' is not MIN-MAX");
    return {*low, *high};
  };
  if (words.size() >= 3) std::tie(match.model_min, match.model_max) = parse_range(words[2], "model");
  if (words.size() == 4) std::tie(match.stepping_min, match.stepping_max) = parse_range(words[3], "stepping");
  return match;
}

double parse_constant(const Entry& entry, std::string_view what, std::string_view instead) {
  const std::string text = entry.text();
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw ParseError(entry.value_at(), std::string(what) + " '" + entry.key + "' is not a number: '" + text +
                                           "'; write a decimal number such as 8 or 0.5" + std::string(instead));
  }
  return value;
}

unsigned parse_count(const Entry& entry) {
  const std::string text = entry.text();
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > 64) {
    throw ParseError(entry.value_at(),
                     "'" + entry.key + "' is not a counter count: '" + text + "'; write a whole number from 1 to 64");
  }
  return value;
}

}  // namespace topdown::model
