#include "self_process.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>

namespace topdown::symbols::testing {

std::vector<SelfMapping> self_mappings() {
  std::ifstream maps("/proc/self/maps");
  std::vector<SelfMapping> mappings;
  std::string line;
  while (std::getline(maps, line)) {
    // START-END PERMS OFFSET DEV INODE [PATH]
    std::istringstream fields(line);
    std::string range, permissions, offset, device, inode;
    fields >> range >> permissions >> offset >> device >> inode;
    SelfMapping mapping;
    size_t dash = range.find('-');
    mapping.start = std::stoull(range.substr(0, dash), nullptr, 16);
    mapping.end = std::stoull(range.substr(dash + 1), nullptr, 16);
    mapping.file_offset = std::stoull(offset, nullptr, 16);
    std::getline(fields >> std::ws, mapping.path);
    mappings.push_back(mapping);
  }
  return mappings;
}

void map_self(Symbolizer& symbolizer, uint32_t pid) {
  for (const SelfMapping& mapping : self_mappings()) {
    symbolizer.map(pid, mapping.start, mapping.end - mapping.start, mapping.file_offset, mapping.path, "");
  }
}

SelfMapping mapping_of(uintptr_t address) {
  for (const SelfMapping& mapping : self_mappings()) {
    if (address >= mapping.start && address < mapping.end) {
      return mapping;
    }
  }
  ADD_FAILURE() << "no mapping of this process holds " << std::hex << address;
  return {};
}

ScratchDir::ScratchDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "topdown-symbols-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a folder like " + pattern);
  }
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace topdown::symbols::testing
