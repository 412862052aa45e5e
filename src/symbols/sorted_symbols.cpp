#include "symbols/sorted_symbols.h"

#include <algorithm>
#include <limits>

namespace topdown::symbols {

void SortedSymbols::add(uint64_t start, uint64_t end, std::string_view name) {
  if (names_.size() + name.size() > std::numeric_limits<uint32_t>::max()) return;  // 4 GB of names: the rest unnamed
  ranges_.push_back({start, end, static_cast<uint32_t>(names_.size()), static_cast<uint32_t>(name.size())});
  names_.append(name);
}

void SortedSymbols::sort() {
  // Names are appended in order, so the name offset orders equal starts as
  // they were added: the last added comes last and wins.
  std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) {
    return a.start != b.start ? a.start < b.start : a.name_offset < b.name_offset;
  });
  uint64_t next_start = std::numeric_limits<uint64_t>::max();
  for (size_t i = ranges_.size(); i-- > 0;) {
    if (ranges_[i].end == 0) ranges_[i].end = next_start;
    if (i > 0 && ranges_[i - 1].start < ranges_[i].start) next_start = ranges_[i].start;
  }
  ranges_.shrink_to_fit();
  names_.shrink_to_fit();
}

std::optional<NamedRange> SortedSymbols::find(uint64_t address) const {
  auto after = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                                [](uint64_t value, const Range& range) { return value < range.start; });
  if (after == ranges_.begin()) {
    return std::nullopt;
  }
  const Range& candidate = *(after - 1);
  if (address >= candidate.end) return std::nullopt;
  return NamedRange{candidate.start, candidate.end,
                    std::string_view(names_).substr(candidate.name_offset, candidate.name_size)};
}

}  // namespace topdown::symbols
