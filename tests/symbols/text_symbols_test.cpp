// Kernel symbols from a kallsyms file, JIT symbols from perf-PID.map files,
// and what has no symbols at all.
#include <gtest/gtest.h>

#include <fstream>

#include "self_process.h"
#include "symbols/symbolizer.h"

namespace topdown::symbols {
namespace {

using testing::ScratchDir;

const std::string kData = TOPDOWN_SOURCE_DIR "/tests/data/symbols/";

Symbolizer::Options with_kallsyms(const std::string& path) {
  Symbolizer::Options options;
  options.kallsyms = path;
  return options;
}

TEST(KernelSymbols, AddressesResolveToTheFunctionThatHoldsThem) {
  Symbolizer symbolizer(with_kallsyms(kData + "kallsyms"));
  const Location& syscall = symbolizer.resolve(1, 0xffffffff81003010, true);
  EXPECT_EQ(syscall.function, "__x64_sys_write");
  EXPECT_EQ(syscall.module, "[kernel]");
  EXPECT_EQ(syscall.file, "");
  // Data symbols do not end the function before them.
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81002010, true).function, "do_one_initcall");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81003900, true).function, "weak_kernel_function");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffffc0a01abc, true).function, "ext4_file_read_iter");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff80000000, true).function, "[unknown]");
  EXPECT_EQ(symbolizer.warnings(), std::vector<std::string>{});
}

TEST(KernelSymbols, KernelFlagDecidesOverTheProcessMappings) {
  Symbolizer symbolizer(with_kallsyms(kData + "kallsyms"));
  symbolizer.map(7, 0xffffffff81000000, 0x10000, 0, "//anon", "");
  EXPECT_EQ(symbolizer.resolve(7, 0xffffffff81001004, true).function, "do_one_initcall");
  EXPECT_EQ(symbolizer.resolve(7, 0xffffffff81001004, false).module, "[unknown]");
}

TEST(KernelSymbols, HiddenAddressesAreUnknownWithOneWarning) {
  Symbolizer symbolizer(with_kallsyms(kData + "kallsyms_hidden"));
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81003010, true).function, "[unknown]");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81001010, true).function, "[unknown]");
  EXPECT_EQ(
      symbolizer.warnings(),
      std::vector<std::string>{kData + "kallsyms_hidden shows every kernel address as 0 (kernel.kptr_restrict): kernel "
                                       "samples show as [unknown]; report as root or with sysctl "
                                       "kernel.kptr_restrict=0"});
}

TEST(KernelSymbols, AnUnreadableFileIsOneWarning) {
  Symbolizer symbolizer(with_kallsyms("/no/such/kallsyms"));
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81003010, true).function, "[unknown]");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81003010, true).module, "[unknown]");
  EXPECT_EQ(symbolizer.warnings(),
            std::vector<std::string>{"cannot read /no/such/kallsyms (No such file or directory): kernel samples "
                                     "show as [unknown]; report on the machine that recorded, as root or with "
                                     "kernel.kptr_restrict=0"});
}

TEST(KernelSymbols, NoKallsymsWantedMeansNoWarning) {
  Symbolizer symbolizer(with_kallsyms(""));
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81003010, true).function, "[unknown]");
  EXPECT_EQ(symbolizer.warnings(), std::vector<std::string>{});
}

// Of a kernel's 100,000 and more functions, those at the expected addresses
// are kept, each to its true end, whatever order kallsyms lists them in.
TEST(KernelSymbols, ExpectedAddressesKeepTheirFunctionsOnly) {
  ScratchDir scratch;
  const std::string path = (scratch.path() / "kallsyms").string();
  std::ofstream(path) << "ffffffff81003000 T __x64_sys_write\n"
                         "ffffffff81001000 t do_one_initcall\n"
                         "ffffffff81000000 T _stext\n"
                         "ffffffff81002000 D some_data_that_is_not_code\n"
                         "ffffffff81003800 W weak_kernel_function\n"
                         "ffffffff81000000 T startup_64\n"
                         "ffffffffc0a01000 t ext4_file_read_iter\t[ext4]\n";
  Symbolizer symbolizer(with_kallsyms(path));
  symbolizer.expect_kernel_addresses(
      {0xffffffff80000000, 0xffffffff81000010, 0xffffffff81002010, 0xffffffff81003900, 0xffffffffc0a01abc});
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff80000000, true).function, "[unknown]");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81000010, true).function, "startup_64") << "of one start, the last listed";
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81002010, true).function, "do_one_initcall");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81003900, true).function, "weak_kernel_function");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffffc0a01abc, true).function, "ext4_file_read_iter");
  // Not expected: inside a kept function it is still that function; where
  // no kept function reaches it is unknown, never the wrong function.
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81001004, true).function, "do_one_initcall");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81000fff, true).function, "startup_64");
  EXPECT_EQ(symbolizer.resolve(1, 0xffffffff81003010, true).function, "[unknown]");
  EXPECT_EQ(symbolizer.warnings(), std::vector<std::string>{});
}

class JitSymbols : public ::testing::Test {
 protected:
  JitSymbols() {
    options_.jit_map_dir = scratch_.path().string();
    std::ofstream(scratch_.path() / "perf-4242.map") << "7f0000001000 40 LazyCompile:~add_numbers script.js:3\n"
                                                        "7f0000001040 0x20 _ZN2vm6Interp4stepEv\n"
                                                        "this line is not a symbol\n"
                                                        "7f0000002000 100 Interpreter\n"
                                                        "7f0000002010 10 hot_loop_recompiled\n";
  }
  ScratchDir scratch_;
  Symbolizer::Options options_;
};

TEST_F(JitSymbols, AnonymousMemoryResolvesThroughThePerfMapOfItsProcess) {
  Symbolizer symbolizer(options_);
  symbolizer.map(4242, 0x7f0000000000, 0x10000, 0, "//anon", "");
  const Location& script = symbolizer.resolve(4242, 0x7f0000001010, false);
  EXPECT_EQ(script.function, "LazyCompile:~add_numbers script.js:3");
  EXPECT_EQ(script.module, "[jit]");
  EXPECT_EQ(symbolizer.resolve(4242, 0x7f000000105f, false).function, "vm::Interp::step()");
  EXPECT_EQ(symbolizer.resolve(4242, 0x7f0000001060, false).function, "[unknown]");
  // Code recompiled over older code wins where it lies.
  EXPECT_EQ(symbolizer.resolve(4242, 0x7f0000002014, false).function, "hot_loop_recompiled");
  EXPECT_EQ(symbolizer.resolve(4242, 0x7f0000002004, false).function, "Interpreter");
  EXPECT_EQ(symbolizer.warnings(), std::vector<std::string>{});
}

TEST_F(JitSymbols, AnonymousMemoryWithoutAMapFileIsUnknown) {
  Symbolizer symbolizer(options_);
  symbolizer.map(4243, 0x7f0000000000, 0x10000, 0, "//anon", "");
  const Location& location = symbolizer.resolve(4243, 0x7f0000001010, false);
  EXPECT_EQ(location.function, "[unknown]");
  EXPECT_EQ(location.module, "[unknown]");
}

TEST_F(JitSymbols, AddressesOutsideEveryMappingAndUnknownProcessesAreUnknown) {
  Symbolizer symbolizer(options_);
  symbolizer.map(4242, 0x7f0000000000, 0x1000, 0, "//anon", "");
  EXPECT_EQ(symbolizer.resolve(4242, 0x7f0000001010, false).function, "[unknown]");  // past the mapping's end
  EXPECT_EQ(symbolizer.resolve(9999, 0x7f0000000010, false).function, "[unknown]");  // a process never seen
}

TEST(SpecialMappings, AreUnknownInTheirOwnModule) {
  Symbolizer symbolizer;
  symbolizer.map(5, 0x7ffd00000000, 0x2000, 0, "[vdso]", "");
  const Location& location = symbolizer.resolve(5, 0x7ffd00000100, false);
  EXPECT_EQ(location.function, "[unknown]");
  EXPECT_EQ(location.module, "[vdso]");
}

}  // namespace
}  // namespace topdown::symbols
