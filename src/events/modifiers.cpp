#include "events/modifiers.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "common/error.h"
#include "events/raw_syntax.h"

namespace topdown::events {
namespace {

bool all_of(std::string_view text, std::string_view allowed) {
  return !text.empty() && text.find_first_not_of(allowed) == std::string_view::npos;
}

constexpr std::string_view kDecimal = "0123456789";
constexpr std::string_view kHex = "0123456789abcdefABCDEF";

std::optional<uint64_t> number_after_letter(std::string_view item) {
  const std::string_view digits = item.substr(1);
  const bool hex_prefixed = digits.size() > 2 && digits.substr(0, 2) == "0x" && all_of(digits.substr(2), kHex);
  if (!hex_prefixed && !all_of(digits, kDecimal)) return std::nullopt;
  return parse_number(digits, item);
}

bool equal_ignoring_case(std::string_view text, std::string_view word) {
  auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  return std::equal(text.begin(), text.end(), word.begin(), word.end(),
                    [&](char a, char b) { return lower(a) == lower(b); });
}

// perf's letters: u (user only), k (kernel only), p (more precise, up to 3).
bool parse_perf_letters(std::string_view letters, Modifiers& modifiers) {
  if (!all_of(letters, "ukp")) return false;
  const auto precise = std::count(letters.begin(), letters.end(), 'p');
  if (precise > 3) return false;
  if (letters.find('u') != std::string_view::npos) modifiers.exclude_kernel = true;
  if (letters.find('k') != std::string_view::npos) modifiers.exclude_user = true;
  if (precise > 0) modifiers.precise = static_cast<int>(precise);
  return true;
}

// The core PMUs call the counter mask "cmask", the server uncore units
// "thresh", the client ones from Alder Lake on "threshold".
std::string_view counter_mask_term(const PmuFormat& format) {
  for (std::string_view term : {"cmask", "thresh"}) {
    if (format.knows(term)) return term;
  }
  return "threshold";
}

}  // namespace

bool parse_modifier(std::string_view item, Modifiers& modifiers) {
  // TMA writes :SUP and :USER, toplev and perf files :sup and :user.
  if (equal_ignoring_case(item, "SUP")) {
    modifiers.exclude_user = true;
    return true;
  }
  if (equal_ignoring_case(item, "USER")) {
    modifiers.exclude_kernel = true;
    return true;
  }
  if (item == "percore") {
    modifiers.percore = true;
    return true;
  }
  if (item == "one_unit") {
    modifiers.one_box = true;
    return true;
  }
  // perfmon's spelling of an OFFCORE_RESPONSE event with another MSR value;
  // model formulas escape its '=' as "\=".
  for (std::string_view prefix : {"ocr_msr_val=", "ocr_msr_val\\="}) {
    if (item.starts_with(prefix)) {
      const std::string_view digits = item.substr(prefix.size());
      if (!digits.starts_with("0x") || !all_of(digits.substr(2), kHex)) return false;
      modifiers.offcore_response = parse_number(digits, item);
      return true;
    }
  }
  if (item.size() < 2) return parse_perf_letters(item, modifiers);
  if (item.starts_with("eq")) {
    const auto value = number_after_letter(item.substr(1));
    if (!value) return false;
    modifiers.equal = *value;
    return true;
  }
  switch (item[0]) {
    case 'c':
    case 'i':
    case 'e': {
      const auto value = number_after_letter(item);
      if (!value) return false;
      (item[0] == 'c' ? modifiers.cmask : item[0] == 'i' ? modifiers.invert : modifiers.edge) = *value;
      return true;
    }
    case 'u': {
      // ":uE4" and ":u0xE4" replace the unit mask; ":upp" are perf letters.
      const std::string_view digits = item.substr(1);
      const bool prefixed = digits.size() > 2 && digits.substr(0, 2) == "0x";
      const std::string_view hex_digits = prefixed ? digits.substr(2) : digits;
      if (all_of(hex_digits, kHex)) {
        modifiers.umask = parse_number("0x" + std::string(hex_digits), item);
        return true;
      }
      return parse_perf_letters(item, modifiers);
    }
    default:
      return parse_perf_letters(item, modifiers);
  }
}

std::string_view strip_modifiers(std::string_view name, Modifiers& modifiers) {
  std::vector<std::string_view> items;
  std::string_view base = name;
  for (size_t colon = base.rfind(':'); colon != std::string_view::npos; colon = base.rfind(':')) {
    Modifiers probe;
    if (!parse_modifier(base.substr(colon + 1), probe)) break;
    items.push_back(base.substr(colon + 1));
    base = base.substr(0, colon);
  }
  // Applied in written order, so a later modifier wins.
  for (auto item = items.rbegin(); item != items.rend(); ++item) parse_modifier(*item, modifiers);
  return base;
}

Modifiers parse_suffix_modifiers(std::string_view suffix, std::string_view event) {
  Modifiers modifiers;
  if (suffix.empty()) return modifiers;
  const auto reject = [&](std::string_view item) {
    throw Error("event '" + std::string(event) + "': unknown modifier '" + std::string(item) +
                "'; use :cN :iN :eN :eqN :uXX :SUP :USER :p or perf's u/k/p");
  };
  if (suffix[0] != ':') {
    if (!parse_perf_letters(suffix, modifiers)) reject(suffix);
    return modifiers;
  }
  std::string_view rest = suffix.substr(1);
  while (true) {
    const size_t colon = rest.find(':');
    const std::string_view item = rest.substr(0, colon);
    if (!parse_modifier(item, modifiers)) reject(item);
    if (colon == std::string_view::npos) break;
    rest = rest.substr(colon + 1);
  }
  return modifiers;
}

void apply_modifiers(const Modifiers& modifiers, const PmuFormat& format, Encoding& encoding) {
  if (modifiers.cmask) format.set(encoding, counter_mask_term(format), *modifiers.cmask);
  if (modifiers.invert) format.set(encoding, "inv", *modifiers.invert);
  if (modifiers.edge) format.set(encoding, "edge", *modifiers.edge);
  if (modifiers.equal) format.set(encoding, "eq", *modifiers.equal);
  if (modifiers.umask) format.set(encoding, "umask", *modifiers.umask);
  encoding.exclude_user = encoding.exclude_user || modifiers.exclude_user;
  encoding.exclude_kernel = encoding.exclude_kernel || modifiers.exclude_kernel;
  if (encoding.exclude_user && encoding.exclude_kernel) {
    throw Error("event '" + encoding.name +
                "' excludes both user and kernel mode and would count nothing; keep one of "
                ":SUP/:k and :USER/:u");
  }
  if (modifiers.precise > 0) encoding.precise = modifiers.precise;
  encoding.percore = encoding.percore || modifiers.percore;
  if (modifiers.offcore_response) encoding.config1 = *modifiers.offcore_response;
  if (modifiers.one_box && (!encoding.box_types.empty() || encoding.type == Encoding::kAbsentPmu)) {
    encoding.pmu += "_0";
    encoding.box_types.resize(std::min<size_t>(encoding.box_types.size(), 1));
  }
}

}  // namespace topdown::events
