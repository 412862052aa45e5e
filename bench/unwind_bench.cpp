// Unwinding speed of record --call-graph dwarf samples at report time: this
// process's own registers and stack, taken 20 calls deep, unwound again and
// again through its /proc/self/maps with libdwfl as report unwinds each
// sample (the process's unwinder built once, as for a recording's process):
// unwinds per second, and the frames each gives.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "perf/user_registers.h"
#include "symbols/self_maps.h"
#include "symbols/self_stack.h"
#include "symbols/symbolizer.h"

namespace {

#if defined(__x86_64__)

constexpr uint32_t kPid = 1234;
constexpr std::size_t kStackBytes = 8192;  // record --call-graph dwarf's default
constexpr int kDepth = 20;

__attribute__((noinline)) topdown::symbols::testing::SavedStack deeper(int depth) {
  topdown::symbols::testing::SavedStack saved =
      depth == 0 ? topdown::symbols::testing::save_stack(kStackBytes) : deeper(depth - 1);
  asm volatile("");  // no tail call: every level keeps its frame
  return saved;
}

void BM_UnwindDwarfStack(benchmark::State& state) {
  topdown::symbols::Symbolizer symbolizer;
  for (const auto& m : topdown::symbols::testing::self_mappings()) {
    if (m.executable) symbolizer.map(kPid, m.start, m.end - m.start, m.file_offset, m.path, "");
  }
  const topdown::symbols::testing::SavedStack saved = deeper(kDepth);
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
