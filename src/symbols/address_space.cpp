#include "symbols/address_space.h"

namespace topdown::symbols {

void AddressSpace::add(const Mapping& mapping) {
  auto next = by_start_.lower_bound(mapping.start);
  if (next != by_start_.begin()) {
    Mapping& before = std::prev(next)->second;
    if (before.end > mapping.start) {
      if (before.end > mapping.end) {  // the new mapping punches a hole: keep the tail
        Mapping tail = before;
        tail.file_offset += mapping.end - before.start;
        tail.start = mapping.end;
        by_start_.emplace(tail.start, tail);
      }
      before.end = mapping.start;
    }
  }
  next = by_start_.lower_bound(mapping.start);
  while (next != by_start_.end() && next->second.start < mapping.end) {
    Mapping overlapped = next->second;
    next = by_start_.erase(next);
    if (overlapped.end > mapping.end) {
      overlapped.file_offset += mapping.end - overlapped.start;
      overlapped.start = mapping.end;
      by_start_.emplace(overlapped.start, overlapped);
      break;
    }
  }
  by_start_[mapping.start] = mapping;
}

const Mapping* AddressSpace::find(uint64_t address) const {
  auto after = by_start_.upper_bound(address);
  if (after == by_start_.begin()) {
    return nullptr;
  }
  const Mapping& candidate = std::prev(after)->second;
  return address < candidate.end ? &candidate : nullptr;
}

}  // namespace topdown::symbols
