#include "self_process.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace topdown::symbols::testing {

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
