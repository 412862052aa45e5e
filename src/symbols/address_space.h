#pragma once
// The mappings of one process image: what is mapped at each address.
#include <cstdint>
#include <map>

namespace topdown::symbols {

class ElfModule;
struct Location;

struct Mapping {
  uint64_t start = 0;
  uint64_t end = 0;  // one past the last byte
  uint64_t file_offset = 0;
  ElfModule* module = nullptr;      // a file's code, else:
  const Location* fixed = nullptr;  // a special mapping ([vdso], [heap]) that has no symbols, else:
  bool anonymous = false;           // anonymous memory, where JIT code lives
};

class AddressSpace {
 public:
  // A new mapping replaces what it overlaps, as mmap(MAP_FIXED) does.
  void add(const Mapping& mapping);
  const Mapping* find(uint64_t address) const;
  bool empty() const { return by_start_.empty(); }
  const std::map<uint64_t, Mapping>& by_start() const { return by_start_; }

 private:
  std::map<uint64_t, Mapping> by_start_;
};

}  // namespace topdown::symbols
