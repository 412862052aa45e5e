#pragma once
// This thread's registers and stack as a --call-graph dwarf sample saves
// them, taken where it is called from, to unwind them again (the unwinder
// tests and unwind_bench). x86_64 only: the registers are read with its
// instructions.
#include <pthread.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "perf/user_registers.h"

namespace topdown::symbols::testing {

struct SavedStack {
  std::vector<uint64_t> registers;  // perf order of perf::user_register_mask()
  std::vector<std::byte> stack;     // from the stack pointer up
};

inline uint64_t thread_stack_end() {
  pthread_attr_t attributes;
  pthread_getattr_np(pthread_self(), &attributes);
  void* low = nullptr;
  std::size_t size = 0;
  pthread_attr_getstack(&attributes, &low, &size);
  pthread_attr_destroy(&attributes);
  return reinterpret_cast<uint64_t>(low) + size;
}

#if defined(__x86_64__)
// The ip, stack and frame pointers here (the other registers 0) and up to
// `bytes` of the stack above.
__attribute__((noinline)) inline SavedStack save_stack(std::size_t bytes) {
  uint64_t ip = 0;
  uint64_t sp = 0;
  uint64_t bp = 0;
  asm volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2" : "=r"(ip), "=r"(sp), "=r"(bp));
  SavedStack saved;
  for (int index = 0; index < 64; ++index) {
    if ((perf::user_register_mask() & (uint64_t{1} << index)) == 0) continue;
    saved.registers.push_back(index == PERF_REG_X86_IP   ? ip
                              : index == PERF_REG_X86_SP ? sp
                              : index == PERF_REG_X86_BP ? bp
                                                         : 0);
  }
  saved.stack.resize(std::min<std::size_t>(bytes, thread_stack_end() - sp));
  std::memcpy(saved.stack.data(), reinterpret_cast<const void*>(sp), saved.stack.size());
  return saved;
}
#endif

}  // namespace topdown::symbols::testing
