#include "region/group_read.h"

namespace topdown::region {

bool parse_group_read(const uint64_t* words, std::size_t word_count, std::size_t expected, uint64_t member_scale,
                      Snapshot& out) {
  out.valid = false;
  if (expected == 0 || expected > kMaxValues || word_count < kGroupReadHeaderWords + expected ||
      words[0] != expected) {
    return false;
  }
  out.time_enabled = words[1];
  out.time_running = words[2];
  const uint64_t* values = words + kGroupReadHeaderWords;
  out.values[0] = values[0];
  for (std::size_t i = 1; i < expected; ++i) out.values[i] = values[i] * member_scale;
  out.valid = true;
  return true;
}

}  // namespace topdown::region
