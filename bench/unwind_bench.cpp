// Unwinding speed of record --call-graph dwarf samples at report time: this
// process's own registers and stack, taken 20 calls deep, unwound again and
// again through its /proc/self/maps with libdwfl as report unwinds each
// sample (the process's unwinder built once, as for a recording's process):
// unwinds per second, and the frames each gives.
#include <benchmark/benchmark.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "perf/user_registers.h"
#include "symbols/self_maps.h"
#include "symbols/symbolizer.h"

namespace {

#if defined(__x86_64__)

constexpr uint32_t kPid = 1234;
constexpr std::size_t kStackBytes = 8192;  // record --call-graph dwarf's default
constexpr int kDepth = 20;

// What a dwarf sample saves: registers in perf order, the stack from sp up.
struct Saved {
  std::vector<uint64_t> registers;
  std::vector<std::byte> stack;
};

uint64_t stack_end() {
  pthread_attr_t attributes;
  pthread_getattr_np(pthread_self(), &attributes);
  void* low = nullptr;
  std::size_t size = 0;
  pthread_attr_getstack(&attributes, &low, &size);
  pthread_attr_destroy(&attributes);
  return reinterpret_cast<uint64_t>(low) + size;
}

__attribute__((noinline)) void take(Saved& saved) {
  uint64_t ip = 0, sp = 0, bp = 0;
  asm volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2" : "=r"(ip), "=r"(sp), "=r"(bp));
  for (int index = 0; index < 64; ++index) {
    if ((topdown::perf::user_register_mask() & (uint64_t{1} << index)) == 0) continue;
    saved.registers.push_back(index == PERF_REG_X86_IP   ? ip
                              : index == PERF_REG_X86_SP ? sp
                              : index == PERF_REG_X86_BP ? bp
                                                         : 0);
  }
  const std::size_t bytes = std::min<std::size_t>(kStackBytes, stack_end() - sp);
  saved.stack.resize(bytes);
  std::memcpy(saved.stack.data(), reinterpret_cast<const void*>(sp), bytes);
}

__attribute__((noinline)) void deeper(Saved& saved, int depth) {
  if (depth == 0) {
    take(saved);
  } else {
    deeper(saved, depth - 1);
  }
  asm volatile("");  // no tail call: every level keeps its frame
}

void BM_UnwindDwarfStack(benchmark::State& state) {
  topdown::symbols::Symbolizer symbolizer;
  for (const auto& m : topdown::symbols::testing::self_mappings()) {
    if (m.executable) symbolizer.map(kPid, m.start, m.end - m.start, m.file_offset, m.path, "");
  }
  Saved saved;
  deeper(saved, kDepth);
  const topdown::symbols::UserState user{topdown::perf::user_register_mask(), saved.registers, saved.stack};
  std::vector<uint64_t> frames;
  for (auto _ : state) {
    frames.clear();
    symbolizer.unwind(kPid, static_cast<uint32_t>(::gettid()), user, 127, frames);
    benchmark::DoNotOptimize(frames.data());
  }
  state.counters["unwinds_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["frames"] = static_cast<double>(frames.size());
}
BENCHMARK(BM_UnwindDwarfStack);

#endif

}  // namespace

BENCHMARK_MAIN();
