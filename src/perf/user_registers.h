#pragma once
// The user-mode registers a sample saves for unwinding its stack later
// (PERF_SAMPLE_REGS_USER), and their DWARF register numbers, for the
// architectures topdown unwinds on. Everything arch-specific of DWARF
// unwinding is in this table.
#include <array>
#include <cstdint>

#if defined(__x86_64__) || defined(__aarch64__)
#include <asm/perf_regs.h>
#endif

namespace topdown::perf {

// One saved register: its perf_regs index and its DWARF number.
struct UserRegister {
  int perf_index;
  int dwarf_number;
};

#if defined(__x86_64__)
// rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15, then the return address
// column (16), which holds the ip.
inline constexpr std::array<UserRegister, 17> kUserRegisters = {{
    {PERF_REG_X86_AX, 0},
    {PERF_REG_X86_DX, 1},
    {PERF_REG_X86_CX, 2},
    {PERF_REG_X86_BX, 3},
    {PERF_REG_X86_SI, 4},
    {PERF_REG_X86_DI, 5},
    {PERF_REG_X86_BP, 6},
    {PERF_REG_X86_SP, 7},
    {PERF_REG_X86_R8, 8},
    {PERF_REG_X86_R9, 9},
    {PERF_REG_X86_R10, 10},
    {PERF_REG_X86_R11, 11},
    {PERF_REG_X86_R12, 12},
    {PERF_REG_X86_R13, 13},
    {PERF_REG_X86_R14, 14},
    {PERF_REG_X86_R15, 15},
    {PERF_REG_X86_IP, 16},
}};
inline constexpr int kStackPointer = PERF_REG_X86_SP;
inline constexpr int kInstructionPointer = PERF_REG_X86_IP;
#elif defined(__aarch64__)
// x0-x30 and sp share their DWARF numbers with perf's; the pc has none and
// is set apart.
inline constexpr std::array<UserRegister, 32> kUserRegisters = [] {
  std::array<UserRegister, 32> registers{};
  for (int i = 0; i < 32; ++i) registers[static_cast<std::size_t>(i)] = {i, i};
  return registers;
}();
inline constexpr int kStackPointer = PERF_REG_ARM64_SP;
inline constexpr int kInstructionPointer = PERF_REG_ARM64_PC;
#else
inline constexpr std::array<UserRegister, 0> kUserRegisters = {};
inline constexpr int kStackPointer = -1;
inline constexpr int kInstructionPointer = -1;
#endif

// perf_event_attr.sample_regs_user: the registers above and the ip; 0 where
// topdown does not unwind.
constexpr uint64_t user_register_mask() {
  if (kInstructionPointer < 0) return 0;
  uint64_t mask = uint64_t{1} << kInstructionPointer;
  for (const UserRegister& reg : kUserRegisters) mask |= uint64_t{1} << reg.perf_index;
  return mask;
}

// Where perf register `perf_index` sits among the values a sample saved
// with `mask` (they come in the order of their indices); -1 when not saved.
constexpr int saved_position(uint64_t mask, int perf_index) {
  if (perf_index < 0 || perf_index > 63 || (mask & (uint64_t{1} << perf_index)) == 0) return -1;
  return __builtin_popcountll(mask & ((uint64_t{1} << perf_index) - 1));
}

}  // namespace topdown::perf
