#pragma once
// Event modifiers: TMA style (":c1", ":i1", ":e1", ":eq1", ":u0xE4", ":SUP", ":USER",
// ":p", ":percore", ":ocr_msr_val=0x10003c0001", ":one_unit") and perf style ("u", "k", "pp", also combined as "upp").
#include <cstdint>
#include <optional>
#include <string_view>

#include "events/event.h"
#include "events/pmu_format.h"

namespace topdown::events {

struct Modifiers {
  std::optional<uint64_t> cmask;
  std::optional<uint64_t> invert;
  std::optional<uint64_t> edge;
  std::optional<uint64_t> equal;  // ":eq1": count cycles where the count equals cmask (Lion Cove on)
  std::optional<uint64_t> umask;
  bool exclude_user = false;
  bool exclude_kernel = false;
  int precise = 0;
  bool percore = false;
  std::optional<uint64_t> offcore_response;  // ":ocr_msr_val=0x..": the OFFCORE_RESPONSE MSR value
  // ":one_unit" (perfmon's): an uncore event counted on its PMU's first box
  // only, for what every box counts alike (the uncore clock).
  bool one_box = false;
};

// Adds one modifier item (without its ':') to `modifiers`; false, leaving
// `modifiers` unchanged, when `item` is not a modifier.
bool parse_modifier(std::string_view item, Modifiers& modifiers);

// Splits the trailing ":modifier" items off "NAME:c1:i1". Items that are not
// modifiers stay in the name (libpfm4 spells unit masks as "EVENT:UMASK").
std::string_view strip_modifiers(std::string_view name, Modifiers& modifiers);

// What follows the closing '/' of "pmu/.../" or the raw config of "rNNN":
// perf letters ("upp") or ":"-separated modifiers. Throws topdown::Error
// naming `event` for anything else.
Modifiers parse_suffix_modifiers(std::string_view suffix, std::string_view event);

// Re-packs cmask/inv/edge/umask through the PMU format and sets the
// privilege and precise flags.
void apply_modifiers(const Modifiers& modifiers, const PmuFormat& format, Encoding& encoding);

}  // namespace topdown::events
