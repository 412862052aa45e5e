#pragma once
// The layout read() gives for a group opened with PERF_FORMAT_GROUP |
// PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING:
//   nr, time_enabled, time_running, value[nr]
#include <cstddef>
#include <cstdint>

#include "region/snapshot.h"

namespace topdown::region {

constexpr std::size_t kGroupReadHeaderWords = 3;

// Fills `out` from `words` (as read) when they hold `expected` values; members
// after the leader are multiplied by `member_scale` (PERF_METRICS fields count
// in slots, the rdpmc reader in slots x 0xff). Returns false (and leaves
// out.valid false) for a short read or another group size.
bool parse_group_read(const uint64_t* words, std::size_t word_count, std::size_t expected, uint64_t member_scale,
                      Snapshot& out);

}  // namespace topdown::region
