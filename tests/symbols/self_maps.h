#pragma once
// This process's mappings as /proc/self/maps lists them, to feed a
// Symbolizer as a recording would (the symbols tests and symbols_bench).
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace topdown::symbols::testing {

struct SelfMapping {
  uint64_t start = 0;
  uint64_t end = 0;
  uint64_t file_offset = 0;
  std::string path;
  bool executable = false;
};

inline std::vector<SelfMapping> self_mappings() {
  std::ifstream maps("/proc/self/maps");
  std::vector<SelfMapping> mappings;
  std::string line;
  while (std::getline(maps, line)) {
    // START-END PERMS OFFSET DEV INODE [PATH]
    std::istringstream fields(line);
    std::string range, permissions, offset, device, inode;
    fields >> range >> permissions >> offset >> device >> inode;
    SelfMapping mapping;
    const size_t dash = range.find('-');
    mapping.start = std::stoull(range.substr(0, dash), nullptr, 16);
    mapping.end = std::stoull(range.substr(dash + 1), nullptr, 16);
    mapping.file_offset = std::stoull(offset, nullptr, 16);
    mapping.executable = permissions.find('x') != std::string::npos;
    std::getline(fields >> std::ws, mapping.path);
    mappings.push_back(mapping);
  }
  return mappings;
}

}  // namespace topdown::symbols::testing
