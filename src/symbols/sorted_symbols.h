#pragma once
// Named address ranges sorted by start, for the symbol tables that are plain
// text (kallsyms, perf-PID.map): the range holding an address in O(log n).
#include <cstdint>
#include <string>
#include <vector>

namespace topdown::symbols {

struct NamedRange {
  uint64_t start = 0;
  uint64_t end = 0;  // one past the last address
  std::string name;
};

class SortedSymbols {
 public:
  SortedSymbols() = default;
  // A range whose end is 0 reaches to the next range's start (kallsyms gives
  // no sizes). Where ranges overlap, the one that starts last wins (of equal
  // starts, the one given last): a JIT reuses memory for newer code.
  explicit SortedSymbols(std::vector<NamedRange> ranges);

  const NamedRange* find(uint64_t address) const;
  bool empty() const { return ranges_.empty(); }

 private:
  std::vector<NamedRange> ranges_;
};

}  // namespace topdown::symbols
