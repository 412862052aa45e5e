#pragma once
// Named address ranges sorted by start, for the symbol tables that are plain
// text (kallsyms, perf-PID.map): the range holding an address in O(log n).
// The names lie in one buffer: a kernel's 100,000 and more symbols cost
// their bytes, not a string object each.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::symbols {

struct NamedRange {
  uint64_t start = 0;
  uint64_t end = 0;       // one past the last address
  std::string_view name;  // valid while its SortedSymbols lives
};

class SortedSymbols {
 public:
  // A range whose end is 0 reaches to the next range's start (kallsyms gives
  // no sizes). Where ranges overlap, the one that starts last wins (of equal
  // starts, the one added last): a JIT reuses memory for newer code.
  void add(uint64_t start, uint64_t end, std::string_view name);
  // Once, after the last add() and before find().
  void sort();

  std::optional<NamedRange> find(uint64_t address) const;
  bool empty() const { return ranges_.empty(); }

 private:
  struct Range {
    uint64_t start;
    uint64_t end;
    uint32_t name_offset;
    uint32_t name_size;
  };
  std::vector<Range> ranges_;
  std::string names_;
};

}  // namespace topdown::symbols
