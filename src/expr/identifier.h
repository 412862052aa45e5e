#pragma once
// How identifiers are spelled: the lexer reads these rules and to_string()
// writes them, so both live here and cannot drift apart.
#include <string>
#include <string_view>

namespace topdown::expr {

// ASCII only on purpose: formulas are ASCII, and <cctype> depends on the locale.
constexpr bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Dots and colons belong to event names: UOPS_EXECUTED.CORE:i1:c1.
constexpr bool is_name_char(char c) { return is_name_start(c) || is_digit(c) || c == '.' || c == ':'; }
constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The one name that keeps a hyphen without escaping (the TMA spec's wall time).
inline constexpr std::string_view kIntervalSeconds = "interval-s";

// Functions whose single argument is a name, not a value: perf's questions
// about an event (has_event, source_count) and a threshold's question whether
// another node is over its threshold (over). Each call is kept as one
// identifier, "has_event(cycles-t)", for the Scope to answer.
inline constexpr std::string_view kNameQueries[] = {"has_event", "source_count", "over"};

// Names after which "/terms/" is one perf PMU term: cpu/event=0x3c/.
bool is_pmu_name(std::string_view name);

// The shortest spelling that the lexer reads back as exactly `name`.
std::string spell_identifier(std::string_view name);

}  // namespace topdown::expr
