// The symbolizer on arbitrary files: each input is mapped as a process's
// executable, at two file offsets, and as the kallsyms file; a few addresses
// in each are resolved. Corrupt ELF or DWARF must give "[unknown]" (and a
// warning) or whatever names can be read, never a crash, a hang or a leak.
#include <cstdint>
#include <string>

#include "memory_file.h"
#include "symbols/symbolizer.h"

namespace {

using namespace topdown;

constexpr uint32_t kPid = 77;
constexpr uint64_t kBase = 0x555500000000;
constexpr uint64_t kSecondBase = 0x7f0000000000;

void check(const symbols::Location& location) {
  if (location.function.empty() || location.module.empty() || location.line < 0) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::MemoryFile file(data, size);
  const std::string path = file.path();
  symbols::build_id_of(path);

  symbols::Symbolizer::Options options;
  options.kallsyms = path;
  options.jit_map_dir = "/nonexistent";
  symbols::Symbolizer symbolizer(options);
  uint64_t length = size + 0x10000;
  symbolizer.map(kPid, kBase, length, 0, path, "");
  symbolizer.map(kPid, kSecondBase, length, 0x1000, path, "");
  // Addresses at the usual places of ELF code, and some the input chooses.
  uint64_t offsets[] = {0, 0x40, 0x1000, 0x1010, 0x1100, size / 2, size > 0 ? size - 1 : 0, 0, 0};
  for (size_t i = 0; i < 16 && i < size; ++i) {
    offsets[7 + i % 2] = offsets[7 + i % 2] << 8 | data[size - 1 - i];
  }
  for (uint64_t offset : offsets) {
    check(symbolizer.resolve(kPid, kBase + offset % length, false));
    check(symbolizer.resolve(kPid, kSecondBase + offset % length, false));
    check(symbolizer.resolve(kPid, offset, true));
  }
  return 0;
}
