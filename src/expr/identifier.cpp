#include "expr/identifier.h"

#include <algorithm>
#include <array>

#include "expr/lexer.h"

namespace topdown::expr {
namespace {

// Escapes every character the lexer would not read as part of a plain name.
std::string spell_plain(std::string_view name) {
  std::string out;
  // A reserved word spelled as a name gets an escape so it stays a name.
  if (keyword_kind(name) != TokenKind::Identifier) out += '\\';
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    bool plain = false;
    if (i == 0) {
      plain = is_name_start(c) || (c == '#' && name.size() > 1);
    } else if (i == 1 && name[0] == '#') {
      plain = is_name_start(c);
    } else {
      plain = is_name_char(c);
    }
    if (!plain) out += '\\';
    out += c;
  }
  return out;
}

// Inside "pmu@terms@" everything is literal except the escape and the closer.
std::string spell_terms(std::string_view terms) {
  std::string out;
  for (const char c : terms) {
    if (c == '@' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

bool has_space(std::string_view text) { return std::any_of(text.begin(), text.end(), is_space); }

}  // namespace

bool is_pmu_name(std::string_view name) {
  static constexpr std::array<std::string_view, 6> pmus = {"cpu",      "msr",      "power",
                                                           "cpu_core", "cpu_atom", "cpu_lowpower"};
  return std::find(pmus.begin(), pmus.end(), name) != pmus.end() || name.starts_with("uncore_") ||
         name.starts_with("amd_");
}

std::string spell_identifier(std::string_view name) {
  if (name == kIntervalSeconds) return std::string(name);
  for (const std::string_view query : kNameQueries) {
    const bool is_call =
        name.size() > query.size() + 2 && name.starts_with(query) && name[query.size()] == '(' && name.ends_with(')');
    if (is_call) {
      const auto event = name.substr(query.size() + 1, name.size() - query.size() - 2);
      return std::string(query) + '(' + spell_identifier(event) + ')';
    }
  }
  const auto slash = name.find('/');
  if (slash != std::string_view::npos && slash > 0 && name.size() > slash + 1 && name.ends_with('/')) {
    const auto pmu = name.substr(0, slash);
    const auto terms = name.substr(slash + 1, name.size() - slash - 2);
    const bool reads_as_slash_term = is_pmu_name(pmu) && spell_plain(pmu) == pmu && !terms.empty() &&
                                     terms.find('/') == std::string_view::npos && !has_space(terms);
    if (reads_as_slash_term) return std::string(name);
    return spell_plain(pmu) + '@' + spell_terms(terms) + '@';
  }
  return spell_plain(name);
}

}  // namespace topdown::expr
