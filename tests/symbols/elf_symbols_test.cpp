// Executables and shared libraries of the test process itself, at the
// addresses the loader chose, and copies of the fixture library that are
// stripped, removed or rebuilt.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fixture_library.h"
#include "self_process.h"
#include "symbols/symbolizer.h"

namespace topdown::symbols {
namespace {

using testing::map_self;
using testing::mapping_of;
using testing::ScratchDir;
using testing::SelfMapping;

constexpr uint32_t kPid = 4000;
constexpr const char* kFixtureBuildId = "5ca1ab1e0123456789abcdef0123456789abcdef";

namespace here {
const int kMarkerLine = __LINE__ + 1;
[[gnu::noinline]] int marker(int value) { return value * 7 + (value >> 2); }
}  // namespace here

// Widget::compute by its mangled name, as the library exports it.
uintptr_t address_of_compute() {
  return reinterpret_cast<uintptr_t>(dlsym(RTLD_DEFAULT, "_ZNK7fixture6Widget7computeEi"));
}

// Size of an exported function from the dynamic symbol table.
size_t symbol_size(uintptr_t address) {
  Dl_info info;
  void* symbol = nullptr;
  if (dladdr1(reinterpret_cast<void*>(address), &info, &symbol, RTLD_DL_SYMENT) == 0 || symbol == nullptr) {
    return 0;
  }
  return static_cast<const ElfW(Sym)*>(symbol)->st_size;
}

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

std::string base_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

TEST(ElfSymbols, FunctionOfThePositionIndependentTestProgramWithFileAndLine) {
  Symbolizer symbolizer;
  map_self(symbolizer, kPid);
  uintptr_t address = reinterpret_cast<uintptr_t>(&here::marker);
  const Location& location = symbolizer.resolve(kPid, address, false);
  EXPECT_EQ(location.function, "topdown::symbols::(anonymous namespace)::here::marker(int)");
  EXPECT_EQ(location.inlined, "");
  EXPECT_EQ(location.module, base_name(mapping_of(address).path));
  EXPECT_EQ(location.module, "symbols_tests");
  EXPECT_TRUE(ends_with(location.file, "elf_symbols_test.cpp")) << location.file;
  EXPECT_EQ(location.line, here::kMarkerLine);
  EXPECT_EQ(symbolizer.warnings(), std::vector<std::string>{});
}

TEST(ElfSymbols, LinesAreLeftOutWhenNotWanted) {
  Symbolizer::Options options;
  options.lines = false;
  Symbolizer symbolizer(options);
  map_self(symbolizer, kPid);
  const Location& location = symbolizer.resolve(kPid, reinterpret_cast<uintptr_t>(&here::marker) + 1, false);
  EXPECT_EQ(location.function, "topdown::symbols::(anonymous namespace)::here::marker(int)");
  EXPECT_EQ(location.file, "");
  EXPECT_EQ(location.line, 0);
}

TEST(ElfSymbols, DemangledMethodOfASharedLibrary) {
  Symbolizer symbolizer;
  map_self(symbolizer, kPid);
  const Location& location = symbolizer.resolve(kPid, address_of_compute(), false);
  EXPECT_EQ(location.function, "fixture::Widget::compute(int) const");
  EXPECT_EQ(location.module, "libsymbols_fixture.so");
  EXPECT_TRUE(ends_with(location.file, "fixture_library.cpp")) << location.file;
}

TEST(ElfSymbols, ALibraryLoadedWithDlopenAtItsOwnAddress) {
  void* handle = dlopen(DLOPEN_FIXTURE, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  auto scale = reinterpret_cast<uintptr_t>(dlsym(handle, "_ZN6plugin5scaleEdi"));
  ASSERT_NE(scale, 0u);
  Symbolizer symbolizer;
  map_self(symbolizer, kPid);
  const Location& location = symbolizer.resolve(kPid, scale + 4, false);
  EXPECT_EQ(location.function, "plugin::scale(double, int)");
  EXPECT_EQ(location.module, base_name(DLOPEN_FIXTURE));
  EXPECT_TRUE(ends_with(location.file, "dlopen_fixture.cpp")) << location.file;
  EXPECT_GE(location.line, 4);
  EXPECT_LE(location.line, 9);
  dlclose(handle);
}

TEST(ElfSymbols, InlinedCodeIsChargedToItsCallerWithTheInlineName) {
  Symbolizer symbolizer;
  map_self(symbolizer, kPid);
  uintptr_t start = address_of_compute();
  size_t size = symbol_size(start);
  ASSERT_GT(size, 0u);
  int inlined_addresses = 0;
  for (uintptr_t address = start; address < start + size; ++address) {
    const Location& location = symbolizer.resolve(kPid, address, false);
    ASSERT_EQ(location.function, "fixture::Widget::compute(int) const") << "at +" << address - start;
    if (!location.inlined.empty()) {
      ++inlined_addresses;
      EXPECT_EQ(location.inlined, "fixture::mix_step(int)");
      EXPECT_EQ(location.inline_chain, std::vector<std::string>{"fixture::mix_step(int)"}) << "one level inlined";
      EXPECT_GE(location.line, fixture::kMixStepFirstLine);
      EXPECT_LE(location.line, fixture::kMixStepLastLine);
    }
  }
  EXPECT_GT(inlined_addresses, 0) << "no address of compute() is in the inlined mix_step";
}

// The files left out of read_dwarf_of name their functions from the symbol
// table alone; the chosen ones keep lines and inlined functions.
TEST(ElfSymbols, DwarfIsReadForTheChosenFilesOnly) {
  Symbolizer symbolizer;
  map_self(symbolizer, kPid);
  const std::string program = mapping_of(reinterpret_cast<uintptr_t>(&here::marker)).path;
  symbolizer.read_dwarf_of({program});
  const Location& own = symbolizer.resolve(kPid, reinterpret_cast<uintptr_t>(&here::marker), false);
  EXPECT_EQ(own.line, here::kMarkerLine);
  uintptr_t start = address_of_compute();
  size_t size = symbol_size(start);
  ASSERT_GT(size, 0u);
  for (uintptr_t address = start; address < start + size; ++address) {
    const Location& location = symbolizer.resolve(kPid, address, false);
    ASSERT_EQ(location.function, "fixture::Widget::compute(int) const") << "at +" << address - start;
    ASSERT_EQ(location.inline_chain, std::vector<std::string>{}) << "at +" << address - start;
    ASSERT_EQ(location.file, "");
  }
  EXPECT_EQ(symbolizer.warnings(), std::vector<std::string>{}) << "a library without its DWARF read is not stripped";
}

// The fixture library as another process would map it: at `start`, its text
// where the loader put it in this process.
struct MappedCopy {
  uint64_t start;
  uint64_t compute;  // the address of Widget::compute in that mapping
  uint64_t hidden;   // of the hidden function
};

MappedCopy map_fixture_copy(Symbolizer& symbolizer, const std::string& path, const std::string& build_id) {
  SelfMapping text = mapping_of(address_of_compute());
  MappedCopy copy{0x7f1200000000, 0, 0};
  symbolizer.map(kPid, copy.start, text.end - text.start, text.file_offset, path, build_id);
  copy.compute = copy.start + (address_of_compute() - text.start);
  copy.hidden = copy.start + (fixture::hidden_function_address() - text.start);
  return copy;
}

TEST(ElfSymbols, TheSameFileAtAnotherAddressWithTheRecordedBuildId) {
  Symbolizer symbolizer;
  MappedCopy copy = map_fixture_copy(symbolizer, FIXTURE_LIBRARY, kFixtureBuildId);
  EXPECT_EQ(symbolizer.resolve(kPid, copy.compute, false).function, "fixture::Widget::compute(int) const");
  EXPECT_EQ(symbolizer.resolve(kPid, copy.hidden, false).function, "fixture::hidden_function(int)");
  EXPECT_EQ(symbolizer.warnings(), std::vector<std::string>{});
}

TEST(ElfSymbols, BuildIdOfAFileInHex) {
  EXPECT_EQ(build_id_of(FIXTURE_LIBRARY), kFixtureBuildId);
  EXPECT_EQ(build_id_of("/no/such/file"), "");
  ScratchDir scratch;
  std::string text = (scratch.path() / "text").string();
  std::ofstream(text) << "not an ELF file\n";
  EXPECT_EQ(build_id_of(text), "");
}

TEST(ElfSymbols, AStrippedLibraryFallsBackToItsDynamicSymbolsAndWarnsOnce) {
  ScratchDir scratch;
  std::string stripped = (scratch.path() / "libstripped.so").string();
  std::string command = std::string(OBJCOPY) + " --strip-all " + FIXTURE_LIBRARY + " " + stripped;
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  Symbolizer symbolizer;
  MappedCopy copy = map_fixture_copy(symbolizer, stripped, "");
  const Location& exported = symbolizer.resolve(kPid, copy.compute, false);
  EXPECT_EQ(exported.function, "fixture::Widget::compute(int) const");
  EXPECT_EQ(exported.file, "");
  EXPECT_EQ(exported.inlined, "");
  const Location& hidden = symbolizer.resolve(kPid, copy.hidden, false);
  EXPECT_EQ(hidden.module, "libstripped.so");
  EXPECT_EQ(hidden.function, "[unknown]");
  symbolizer.resolve(kPid, copy.hidden + 1, false);
  EXPECT_EQ(
      symbolizer.warnings(),
      std::vector<std::string>{
          stripped + " is stripped (no symbol table, no debug info): its functions come from its dynamic symbols or "
                     "show as [unknown]; install its debug info (the -dbgsym package) or record an unstripped binary"});
}

TEST(ElfSymbols, AVanishedLibraryIsUnknownInThatModuleWithOneWarning) {
  ScratchDir scratch;
  std::string gone = (scratch.path() / "libgone.so").string();
  std::filesystem::copy_file(FIXTURE_LIBRARY, gone);
  Symbolizer symbolizer;
  MappedCopy copy = map_fixture_copy(symbolizer, gone, kFixtureBuildId);
  std::filesystem::remove(gone);
  const Location& location = symbolizer.resolve(kPid, copy.compute, false);
  EXPECT_EQ(location.function, "[unknown]");
  EXPECT_EQ(location.module, "libgone.so");
  EXPECT_EQ(symbolizer.resolve(kPid, copy.hidden, false).function, "[unknown]");
  EXPECT_EQ(
      symbolizer.warnings(),
      std::vector<std::string>{gone + " is gone since recording: its samples show as [unknown]; report where it was "
                                      "recorded or put the binary back"});
}

TEST(ElfSymbols, AChangedLibraryIsNotSymbolizedFromTheWrongFile) {
  Symbolizer symbolizer;
  MappedCopy copy = map_fixture_copy(symbolizer, FIXTURE_LIBRARY, "00112233445566778899AABBCCDDEEFF00112233");
  const Location& location = symbolizer.resolve(kPid, copy.compute, false);
  EXPECT_EQ(location.function, "[unknown]");
  EXPECT_EQ(location.module, "libsymbols_fixture.so");
  symbolizer.resolve(kPid, copy.hidden, false);
  EXPECT_EQ(
      symbolizer.warnings(),
      std::vector<std::string>{std::string(FIXTURE_LIBRARY) + " changed since recording (build id " + kFixtureBuildId +
                               ", recorded 00112233445566778899aabbccddeeff00112233): its samples show as "
                               "[unknown] rather than as the wrong functions; put the recorded binary back or "
                               "record again"});
}

TEST(ElfSymbols, AFileThatIsNotElfIsUnknownWithOneWarning) {
  ScratchDir scratch;
  std::string text = (scratch.path() / "notelf.so").string();
  std::ofstream(text) << std::string(8192, 'x');
  Symbolizer symbolizer;
  symbolizer.map(kPid, 0x10000, 0x2000, 0, text, "");
  EXPECT_EQ(symbolizer.resolve(kPid, 0x10010, false).function, "[unknown]");
  EXPECT_EQ(symbolizer.resolve(kPid, 0x10010, false).module, "notelf.so");
  ASSERT_EQ(symbolizer.warnings().size(), 1u);
  EXPECT_NE(symbolizer.warnings()[0].find("cannot read " + text + " as an ELF file"), std::string::npos)
      << symbolizer.warnings()[0];
}

}  // namespace
}  // namespace topdown::symbols
