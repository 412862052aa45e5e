#include "symbols/sorted_symbols.h"

#include <algorithm>
#include <limits>

namespace topdown::symbols {

SortedSymbols::SortedSymbols(std::vector<NamedRange> ranges) : ranges_(std::move(ranges)) {
  // Stable: of ranges with one start, the last given comes last and wins.
  std::stable_sort(ranges_.begin(), ranges_.end(),
                   [](const NamedRange& a, const NamedRange& b) { return a.start < b.start; });
  for (size_t i = 0; i < ranges_.size(); ++i) {
    if (ranges_[i].end == 0) {
      ranges_[i].end = std::numeric_limits<uint64_t>::max();
      for (size_t next = i + 1; next < ranges_.size(); ++next) {
        if (ranges_[next].start > ranges_[i].start) {
          ranges_[i].end = ranges_[next].start;
          break;
        }
      }
    }
  }
}

const NamedRange* SortedSymbols::find(uint64_t address) const {
  auto after = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                                [](uint64_t value, const NamedRange& range) { return value < range.start; });
  if (after == ranges_.begin()) {
    return nullptr;
  }
  const NamedRange& candidate = *(after - 1);
  return address < candidate.end ? &candidate : nullptr;
}

}  // namespace topdown::symbols
