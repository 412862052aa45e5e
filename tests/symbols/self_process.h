#pragma once
// The test process's own mappings, from /proc/self/maps, to feed a
// Symbolizer as a recording would, and a scratch folder for copied fixtures.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "self_maps.h"
#include "symbols/symbolizer.h"

namespace topdown::symbols::testing {

// Maps every mapping of this process into `symbolizer` as process `pid`.
void map_self(Symbolizer& symbolizer, uint32_t pid);

// The mapping that holds `address` (fails the test when none does).
SelfMapping mapping_of(uintptr_t address);

// A fresh folder under the system's temporary folder, removed at destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace topdown::symbols::testing
