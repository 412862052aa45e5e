#pragma once
// The perf spellings of an event: "pmu/term=value,.../mods" and "rNNN".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::events {

struct PmuTerm {
  std::string name;
  std::optional<std::string> value;  // absent: "term" alone, which means 1
};

struct PmuSpelling {
  std::string pmu;
  std::vector<PmuTerm> terms;
  std::string modifiers;  // what follows the closing '/'
};

// Splits "cpu/event=0x3c,umask=1/u"; nullopt when `text` is not of that form.
std::optional<PmuSpelling> split_pmu_spelling(std::string_view text);

struct RawSpelling {
  uint64_t config = 0;
  std::string modifiers;  // what follows ':' ("" when none)
};
// "r1a0" or "r1a0:u"; nullopt when `text` is not of that form.
std::optional<RawSpelling> split_raw_spelling(std::string_view text);

// "0x1f" (hex) or "31" (decimal); throws topdown::Error naming `what`.
uint64_t parse_number(std::string_view text, std::string_view what);

}  // namespace topdown::events
